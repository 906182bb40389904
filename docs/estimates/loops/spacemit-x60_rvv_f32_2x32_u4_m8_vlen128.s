mca_loop:
# LLVM-MCA-RISCV-LMUL M8
# LLVM-MCA-RISCV-SEW E32
  vfmacc.vf v0, ft0, v16
  vle32.v v24, (a1)
  flw ft0, 0(a0)
  vfmacc.vf v8, ft1, v16
  flw ft1, 4(a0)
  addi a3, a3, -4
  addi a1, a1, 128
  vfmacc.vf v0, ft0, v24
  vle32.v v16, (a1)
  flw ft0, 8(a0)
  vfmacc.vf v8, ft1, v24
  flw ft1, 12(a0)
  addi a1, a1, 128
  vfmacc.vf v0, ft0, v16
  vle32.v v24, (a1)
  flw ft0, 16(a0)
  vfmacc.vf v8, ft1, v16
  flw ft1, 20(a0)
  addi a1, a1, 128
  vfmacc.vf v0, ft0, v24
  vle32.v v16, (a1)
  flw ft0, 24(a0)
  vfmacc.vf v8, ft1, v24
  flw ft1, 28(a0)
  addi a1, a1, 128
  addi a0, a0, 32
  bgez a3, mca_loop
