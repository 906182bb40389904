mca_loop:
# LLVM-MCA-RISCV-LMUL M2
# LLVM-MCA-RISCV-SEW E32
  vfmacc.vf v0, ft0, v30
  flw ft0, 0(a0)
  vfmacc.vf v2, ft1, v30
  flw ft1, 4(a0)
  addi a3, a3, -4
  vfmacc.vf v4, ft2, v30
  flw ft2, 8(a0)
  vfmacc.vf v6, ft3, v30
  flw ft3, 12(a0)
  vfmacc.vf v8, ft4, v30
  flw ft4, 16(a0)
  vfmacc.vf v10, ft5, v30
  flw ft5, 20(a0)
  vfmacc.vf v12, ft6, v30
  flw ft6, 24(a0)
  vfmacc.vf v14, ft7, v30
  flw ft7, 28(a0)
  vfmacc.vf v16, fa0, v30
  flw fa0, 32(a0)
  vfmacc.vf v18, fa1, v30
  flw fa1, 36(a0)
  vfmacc.vf v20, fa2, v30
  flw fa2, 40(a0)
  vfmacc.vf v22, fa3, v30
  flw fa3, 44(a0)
  vfmacc.vf v24, fa4, v30
  flw fa4, 48(a0)
  vfmacc.vf v26, fa5, v30
  flw fa5, 52(a0)
  vfmacc.vf v28, fa6, v30
  flw fa6, 56(a0)
  vle32.v v30, (a1)
  addi a1, a1, 32
  vfmacc.vf v0, ft0, v30
  flw ft0, 60(a0)
  vfmacc.vf v2, ft1, v30
  flw ft1, 64(a0)
  vfmacc.vf v4, ft2, v30
  flw ft2, 68(a0)
  vfmacc.vf v6, ft3, v30
  flw ft3, 72(a0)
  vfmacc.vf v8, ft4, v30
  flw ft4, 76(a0)
  vfmacc.vf v10, ft5, v30
  flw ft5, 80(a0)
  vfmacc.vf v12, ft6, v30
  flw ft6, 84(a0)
  vfmacc.vf v14, ft7, v30
  flw ft7, 88(a0)
  vfmacc.vf v16, fa0, v30
  flw fa0, 92(a0)
  vfmacc.vf v18, fa1, v30
  flw fa1, 96(a0)
  vfmacc.vf v20, fa2, v30
  flw fa2, 100(a0)
  vfmacc.vf v22, fa3, v30
  flw fa3, 104(a0)
  vfmacc.vf v24, fa4, v30
  flw fa4, 108(a0)
  vfmacc.vf v26, fa5, v30
  flw fa5, 112(a0)
  vfmacc.vf v28, fa6, v30
  flw fa6, 116(a0)
  vle32.v v30, (a1)
  addi a1, a1, 32
  vfmacc.vf v0, ft0, v30
  flw ft0, 120(a0)
  vfmacc.vf v2, ft1, v30
  flw ft1, 124(a0)
  vfmacc.vf v4, ft2, v30
  flw ft2, 128(a0)
  vfmacc.vf v6, ft3, v30
  flw ft3, 132(a0)
  vfmacc.vf v8, ft4, v30
  flw ft4, 136(a0)
  vfmacc.vf v10, ft5, v30
  flw ft5, 140(a0)
  vfmacc.vf v12, ft6, v30
  flw ft6, 144(a0)
  vfmacc.vf v14, ft7, v30
  flw ft7, 148(a0)
  vfmacc.vf v16, fa0, v30
  flw fa0, 152(a0)
  vfmacc.vf v18, fa1, v30
  flw fa1, 156(a0)
  vfmacc.vf v20, fa2, v30
  flw fa2, 160(a0)
  vfmacc.vf v22, fa3, v30
  flw fa3, 164(a0)
  vfmacc.vf v24, fa4, v30
  flw fa4, 168(a0)
  vfmacc.vf v26, fa5, v30
  flw fa5, 172(a0)
  vfmacc.vf v28, fa6, v30
  flw fa6, 176(a0)
  vle32.v v30, (a1)
  addi a1, a1, 32
  vfmacc.vf v0, ft0, v30
  flw ft0, 180(a0)
  vfmacc.vf v2, ft1, v30
  flw ft1, 184(a0)
  vfmacc.vf v4, ft2, v30
  flw ft2, 188(a0)
  vfmacc.vf v6, ft3, v30
  flw ft3, 192(a0)
  vfmacc.vf v8, ft4, v30
  flw ft4, 196(a0)
  vfmacc.vf v10, ft5, v30
  flw ft5, 200(a0)
  vfmacc.vf v12, ft6, v30
  flw ft6, 204(a0)
  vfmacc.vf v14, ft7, v30
  flw ft7, 208(a0)
  vfmacc.vf v16, fa0, v30
  flw fa0, 212(a0)
  vfmacc.vf v18, fa1, v30
  flw fa1, 216(a0)
  vfmacc.vf v20, fa2, v30
  flw fa2, 220(a0)
  vfmacc.vf v22, fa3, v30
  flw fa3, 224(a0)
  vfmacc.vf v24, fa4, v30
  flw fa4, 228(a0)
  vfmacc.vf v26, fa5, v30
  flw fa5, 232(a0)
  vfmacc.vf v28, fa6, v30
  flw fa6, 236(a0)
  vle32.v v30, (a1)
  addi a1, a1, 32
  addi a0, a0, 240
  bgez a3, mca_loop
