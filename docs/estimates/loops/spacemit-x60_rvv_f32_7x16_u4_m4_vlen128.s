mca_loop:
# LLVM-MCA-RISCV-LMUL M4
# LLVM-MCA-RISCV-SEW E32
  vfmacc.vf v0, ft0, v28
  flw ft0, 0(a0)
  vfmacc.vf v4, ft1, v28
  flw ft1, 4(a0)
  addi a3, a3, -4
  vfmacc.vf v8, ft2, v28
  flw ft2, 8(a0)
  vfmacc.vf v12, ft3, v28
  flw ft3, 12(a0)
  vfmacc.vf v16, ft4, v28
  flw ft4, 16(a0)
  vfmacc.vf v20, ft5, v28
  flw ft5, 20(a0)
  vfmacc.vf v24, ft6, v28
  flw ft6, 24(a0)
  vle32.v v28, (a1)
  addi a1, a1, 64
  vfmacc.vf v0, ft0, v28
  flw ft0, 28(a0)
  vfmacc.vf v4, ft1, v28
  flw ft1, 32(a0)
  vfmacc.vf v8, ft2, v28
  flw ft2, 36(a0)
  vfmacc.vf v12, ft3, v28
  flw ft3, 40(a0)
  vfmacc.vf v16, ft4, v28
  flw ft4, 44(a0)
  vfmacc.vf v20, ft5, v28
  flw ft5, 48(a0)
  vfmacc.vf v24, ft6, v28
  flw ft6, 52(a0)
  vle32.v v28, (a1)
  addi a1, a1, 64
  vfmacc.vf v0, ft0, v28
  flw ft0, 56(a0)
  vfmacc.vf v4, ft1, v28
  flw ft1, 60(a0)
  vfmacc.vf v8, ft2, v28
  flw ft2, 64(a0)
  vfmacc.vf v12, ft3, v28
  flw ft3, 68(a0)
  vfmacc.vf v16, ft4, v28
  flw ft4, 72(a0)
  vfmacc.vf v20, ft5, v28
  flw ft5, 76(a0)
  vfmacc.vf v24, ft6, v28
  flw ft6, 80(a0)
  vle32.v v28, (a1)
  addi a1, a1, 64
  vfmacc.vf v0, ft0, v28
  flw ft0, 84(a0)
  vfmacc.vf v4, ft1, v28
  flw ft1, 88(a0)
  vfmacc.vf v8, ft2, v28
  flw ft2, 92(a0)
  vfmacc.vf v12, ft3, v28
  flw ft3, 96(a0)
  vfmacc.vf v16, ft4, v28
  flw ft4, 100(a0)
  vfmacc.vf v20, ft5, v28
  flw ft5, 104(a0)
  vfmacc.vf v24, ft6, v28
  flw ft6, 108(a0)
  vle32.v v28, (a1)
  addi a1, a1, 64
  addi a0, a0, 112
  bgez a3, mca_loop
