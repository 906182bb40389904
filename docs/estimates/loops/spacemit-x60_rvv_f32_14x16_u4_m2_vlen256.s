mca_loop:
# LLVM-MCA-RISCV-LMUL M2
# LLVM-MCA-RISCV-SEW E32
  vfmacc.vf v0, ft0, v28
  vle32.v v30, (a1)
  flw ft0, 0(a0)
  vfmacc.vf v2, ft1, v28
  flw ft1, 4(a0)
  addi a3, a3, -4
  vfmacc.vf v4, ft2, v28
  flw ft2, 8(a0)
  vfmacc.vf v6, ft3, v28
  flw ft3, 12(a0)
  vfmacc.vf v8, ft4, v28
  flw ft4, 16(a0)
  vfmacc.vf v10, ft5, v28
  flw ft5, 20(a0)
  vfmacc.vf v12, ft6, v28
  flw ft6, 24(a0)
  vfmacc.vf v14, ft7, v28
  flw ft7, 28(a0)
  vfmacc.vf v16, fa0, v28
  flw fa0, 32(a0)
  vfmacc.vf v18, fa1, v28
  flw fa1, 36(a0)
  vfmacc.vf v20, fa2, v28
  flw fa2, 40(a0)
  vfmacc.vf v22, fa3, v28
  flw fa3, 44(a0)
  vfmacc.vf v24, fa4, v28
  flw fa4, 48(a0)
  vfmacc.vf v26, fa5, v28
  flw fa5, 52(a0)
  addi a1, a1, 64
  vfmacc.vf v0, ft0, v30
  vle32.v v28, (a1)
  flw ft0, 56(a0)
  vfmacc.vf v2, ft1, v30
  flw ft1, 60(a0)
  vfmacc.vf v4, ft2, v30
  flw ft2, 64(a0)
  vfmacc.vf v6, ft3, v30
  flw ft3, 68(a0)
  vfmacc.vf v8, ft4, v30
  flw ft4, 72(a0)
  vfmacc.vf v10, ft5, v30
  flw ft5, 76(a0)
  vfmacc.vf v12, ft6, v30
  flw ft6, 80(a0)
  vfmacc.vf v14, ft7, v30
  flw ft7, 84(a0)
  vfmacc.vf v16, fa0, v30
  flw fa0, 88(a0)
  vfmacc.vf v18, fa1, v30
  flw fa1, 92(a0)
  vfmacc.vf v20, fa2, v30
  flw fa2, 96(a0)
  vfmacc.vf v22, fa3, v30
  flw fa3, 100(a0)
  vfmacc.vf v24, fa4, v30
  flw fa4, 104(a0)
  vfmacc.vf v26, fa5, v30
  flw fa5, 108(a0)
  addi a1, a1, 64
  vfmacc.vf v0, ft0, v28
  vle32.v v30, (a1)
  flw ft0, 112(a0)
  vfmacc.vf v2, ft1, v28
  flw ft1, 116(a0)
  vfmacc.vf v4, ft2, v28
  flw ft2, 120(a0)
  vfmacc.vf v6, ft3, v28
  flw ft3, 124(a0)
  vfmacc.vf v8, ft4, v28
  flw ft4, 128(a0)
  vfmacc.vf v10, ft5, v28
  flw ft5, 132(a0)
  vfmacc.vf v12, ft6, v28
  flw ft6, 136(a0)
  vfmacc.vf v14, ft7, v28
  flw ft7, 140(a0)
  vfmacc.vf v16, fa0, v28
  flw fa0, 144(a0)
  vfmacc.vf v18, fa1, v28
  flw fa1, 148(a0)
  vfmacc.vf v20, fa2, v28
  flw fa2, 152(a0)
  vfmacc.vf v22, fa3, v28
  flw fa3, 156(a0)
  vfmacc.vf v24, fa4, v28
  flw fa4, 160(a0)
  vfmacc.vf v26, fa5, v28
  flw fa5, 164(a0)
  addi a1, a1, 64
  vfmacc.vf v0, ft0, v30
  vle32.v v28, (a1)
  flw ft0, 168(a0)
  vfmacc.vf v2, ft1, v30
  flw ft1, 172(a0)
  vfmacc.vf v4, ft2, v30
  flw ft2, 176(a0)
  vfmacc.vf v6, ft3, v30
  flw ft3, 180(a0)
  vfmacc.vf v8, ft4, v30
  flw ft4, 184(a0)
  vfmacc.vf v10, ft5, v30
  flw ft5, 188(a0)
  vfmacc.vf v12, ft6, v30
  flw ft6, 192(a0)
  vfmacc.vf v14, ft7, v30
  flw ft7, 196(a0)
  vfmacc.vf v16, fa0, v30
  flw fa0, 200(a0)
  vfmacc.vf v18, fa1, v30
  flw fa1, 204(a0)
  vfmacc.vf v20, fa2, v30
  flw fa2, 208(a0)
  vfmacc.vf v22, fa3, v30
  flw fa3, 212(a0)
  vfmacc.vf v24, fa4, v30
  flw fa4, 216(a0)
  vfmacc.vf v26, fa5, v30
  flw fa5, 220(a0)
  addi a1, a1, 64
  addi a0, a0, 224
  bgez a3, mca_loop
