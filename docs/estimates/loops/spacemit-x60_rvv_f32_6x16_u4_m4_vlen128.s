mca_loop:
# LLVM-MCA-RISCV-LMUL M4
# LLVM-MCA-RISCV-SEW E32
  vfmacc.vf v0, ft0, v24
  vle32.v v28, (a1)
  flw ft0, 0(a0)
  vfmacc.vf v4, ft1, v24
  flw ft1, 4(a0)
  addi a3, a3, -4
  vfmacc.vf v8, ft2, v24
  flw ft2, 8(a0)
  vfmacc.vf v12, ft3, v24
  flw ft3, 12(a0)
  vfmacc.vf v16, ft4, v24
  flw ft4, 16(a0)
  vfmacc.vf v20, ft5, v24
  flw ft5, 20(a0)
  addi a1, a1, 64
  vfmacc.vf v0, ft0, v28
  vle32.v v24, (a1)
  flw ft0, 24(a0)
  vfmacc.vf v4, ft1, v28
  flw ft1, 28(a0)
  vfmacc.vf v8, ft2, v28
  flw ft2, 32(a0)
  vfmacc.vf v12, ft3, v28
  flw ft3, 36(a0)
  vfmacc.vf v16, ft4, v28
  flw ft4, 40(a0)
  vfmacc.vf v20, ft5, v28
  flw ft5, 44(a0)
  addi a1, a1, 64
  vfmacc.vf v0, ft0, v24
  vle32.v v28, (a1)
  flw ft0, 48(a0)
  vfmacc.vf v4, ft1, v24
  flw ft1, 52(a0)
  vfmacc.vf v8, ft2, v24
  flw ft2, 56(a0)
  vfmacc.vf v12, ft3, v24
  flw ft3, 60(a0)
  vfmacc.vf v16, ft4, v24
  flw ft4, 64(a0)
  vfmacc.vf v20, ft5, v24
  flw ft5, 68(a0)
  addi a1, a1, 64
  vfmacc.vf v0, ft0, v28
  vle32.v v24, (a1)
  flw ft0, 72(a0)
  vfmacc.vf v4, ft1, v28
  flw ft1, 76(a0)
  vfmacc.vf v8, ft2, v28
  flw ft2, 80(a0)
  vfmacc.vf v12, ft3, v28
  flw ft3, 84(a0)
  vfmacc.vf v16, ft4, v28
  flw ft4, 88(a0)
  vfmacc.vf v20, ft5, v28
  flw ft5, 92(a0)
  addi a1, a1, 64
  addi a0, a0, 96
  bgez a3, mca_loop
