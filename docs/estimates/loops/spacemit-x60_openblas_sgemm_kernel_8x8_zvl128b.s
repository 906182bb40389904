.LBB0_8:
# LLVM-MCA-RISCV-LMUL M2
# LLVM-MCA-RISCV-SEW E32
	vle32.v	v24, (a2)
	flw	fa4, -28(a1)
	flw	fa3, -24(a1)
	flw	fa2, -20(a1)
	flw	fa1, -16(a1)
	vfmacc.vf	v22, fa4, v24
	vfmacc.vf	v20, fa3, v24
	flw	fa4, -12(a1)
	vfmacc.vf	v16, fa2, v24
	vfmacc.vf	v12, fa1, v24
	flw	fa3, -8(a1)
	flw	fa2, -4(a1)
	flw	fa1, 0(a1)
	vfmacc.vf	v18, fa4, v24
	vfmacc.vf	v14, fa3, v24
	vfmacc.vf	v10, fa2, v24
	vfmacc.vf	v8, fa1, v24
	addi	a1, a1, 32
	addi	a2, a2, 32
	bne	a1, s3, .LBB0_8
