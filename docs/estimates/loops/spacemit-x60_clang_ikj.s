.LBB0_6:
	sh2add	t5, t2, t3
	vsetvli	t6, t4, e32, m2, ta, ma
	vle32.v	v8, (t5)
	sh2add	t5, t2, t0
	vle32.v	v10, (t5)
	vfmacc.vf	v10, fa5, v8
	sub	t4, t4, t6
	vse32.v	v10, (t5)
	add	t2, t2, t6
	bnez	t4, .LBB0_6
