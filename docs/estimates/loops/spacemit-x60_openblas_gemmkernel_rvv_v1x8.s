.LBB0_8:
# LLVM-MCA-RISCV-LMUL M2
# LLVM-MCA-RISCV-SEW E32
	vle32.v	v22, (a3)
	flw	fa5, 0(a4)
	flw	fa4, 4(a4)
	flw	fa3, 8(a4)
	flw	fa2, 12(a4)
	vfmacc.vf	v14, fa5, v22
	vfmacc.vf	v20, fa4, v22
	vfmacc.vf	v18, fa3, v22
	flw	fa5, 16(a4)
	vfmacc.vf	v16, fa2, v22
	flw	fa4, 20(a4)
	flw	fa3, 24(a4)
	flw	fa2, 28(a4)
	vfmacc.vf	v12, fa5, v22
	add	a3, a3, s0
	vfmacc.vf	v10, fa4, v22
	vle32.v	v26, (a3)
	vfmacc.vf	v8, fa3, v22
	flw	fa5, 32(a4)
	vfmadd.vf	v22, fa2, v24
	flw	fa4, 36(a4)
	flw	fa3, 40(a4)
	flw	fa2, 44(a4)
	vfmacc.vf	v14, fa5, v26
	vfmacc.vf	v20, fa4, v26
	vfmacc.vf	v18, fa3, v26
	flw	fa5, 48(a4)
	vfmacc.vf	v16, fa2, v26
	flw	fa4, 52(a4)
	flw	fa3, 56(a4)
	flw	fa2, 60(a4)
	vfmacc.vf	v12, fa5, v26
	add	a3, a3, s0
	vfmacc.vf	v10, fa4, v26
	vle32.v	v24, (a3)
	vfmacc.vf	v8, fa3, v26
	flw	fa5, 64(a4)
	vfmacc.vf	v22, fa2, v26
	flw	fa4, 68(a4)
	flw	fa3, 72(a4)
	flw	fa2, 76(a4)
	vfmacc.vf	v14, fa5, v24
	vfmacc.vf	v20, fa4, v24
	vfmacc.vf	v18, fa3, v24
	flw	fa5, 80(a4)
	vfmacc.vf	v16, fa2, v24
	flw	fa4, 84(a4)
	flw	fa3, 88(a4)
	flw	fa2, 92(a4)
	vfmacc.vf	v12, fa5, v24
	add	a3, a3, s0
	vfmacc.vf	v10, fa4, v24
	vle32.v	v26, (a3)
	vfmacc.vf	v8, fa3, v24
	flw	fa5, 96(a4)
	vfmacc.vf	v22, fa2, v24
	flw	fa4, 100(a4)
	flw	fa3, 104(a4)
	flw	fa2, 108(a4)
	vfmacc.vf	v14, fa5, v26
	vfmacc.vf	v20, fa4, v26
	vfmacc.vf	v18, fa3, v26
	flw	fa5, 112(a4)
	vfmacc.vf	v16, fa2, v26
	flw	fa4, 116(a4)
	flw	fa3, 120(a4)
	flw	fa2, 124(a4)
	vfmacc.vf	v12, fa5, v26
	add	a3, a3, s0
	vfmacc.vf	v10, fa4, v26
	vle32.v	v24, (a3)
	vfmacc.vf	v8, fa3, v26
	flw	fa5, 128(a4)
	vfmacc.vf	v22, fa2, v26
	flw	fa4, 132(a4)
	flw	fa3, 136(a4)
	flw	fa2, 140(a4)
	vfmacc.vf	v14, fa5, v24
	vfmacc.vf	v20, fa4, v24
	vfmacc.vf	v18, fa3, v24
	flw	fa5, 144(a4)
	vfmacc.vf	v16, fa2, v24
	flw	fa4, 148(a4)
	flw	fa3, 152(a4)
	flw	fa2, 156(a4)
	vfmacc.vf	v12, fa5, v24
	add	a3, a3, s0
	vfmacc.vf	v10, fa4, v24
	vle32.v	v26, (a3)
	vfmacc.vf	v8, fa3, v24
	flw	fa5, 160(a4)
	vfmacc.vf	v22, fa2, v24
	flw	fa4, 164(a4)
	flw	fa3, 168(a4)
	flw	fa2, 172(a4)
	vfmacc.vf	v14, fa5, v26
	vfmacc.vf	v20, fa4, v26
	vfmacc.vf	v18, fa3, v26
	flw	fa5, 176(a4)
	vfmacc.vf	v16, fa2, v26
	flw	fa4, 180(a4)
	flw	fa3, 184(a4)
	flw	fa2, 188(a4)
	vfmacc.vf	v12, fa5, v26
	add	a3, a3, s0
	vfmacc.vf	v10, fa4, v26
	vle32.v	v24, (a3)
	vfmacc.vf	v8, fa3, v26
	flw	fa5, 192(a4)
	vfmacc.vf	v22, fa2, v26
	flw	fa4, 196(a4)
	flw	fa3, 200(a4)
	flw	fa2, 204(a4)
	vfmacc.vf	v14, fa5, v24
	vfmacc.vf	v20, fa4, v24
	vfmacc.vf	v18, fa3, v24
	flw	fa5, 208(a4)
	vfmacc.vf	v16, fa2, v24
	flw	fa4, 212(a4)
	flw	fa3, 216(a4)
	flw	fa2, 220(a4)
	vfmacc.vf	v12, fa5, v24
	add	a3, a3, s0
	vfmacc.vf	v10, fa4, v24
	vle32.v	v26, (a3)
	vfmacc.vf	v8, fa3, v24
	flw	fa5, 224(a4)
	vfmacc.vf	v22, fa2, v24
	flw	fa4, 228(a4)
	flw	fa3, 232(a4)
	flw	fa2, 236(a4)
	vfmacc.vf	v14, fa5, v26
	vfmacc.vf	v20, fa4, v26
	vfmacc.vf	v18, fa3, v26
	flw	fa5, 240(a4)
	vfmacc.vf	v16, fa2, v26
	flw	fa4, 244(a4)
	flw	fa3, 248(a4)
	flw	fa2, 252(a4)
	vfmacc.vf	v12, fa5, v26
	vfmacc.vf	v10, fa4, v26
	vmv2r.v	v24, v22
	vfmacc.vf	v8, fa3, v26
	vfmacc.vf	v24, fa2, v26
	addi	a4, a4, 256
	add	a3, a3, s0
	bne	a4, t5, .LBB0_8
