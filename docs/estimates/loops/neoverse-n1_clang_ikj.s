.LBB0_10:
	ldp	q1, q2, [x16, #-16]
	ldp	q3, q4, [x17, #-16]
	fmla	v3.4s, v1.4s, v0.s[0]
	fmla	v4.4s, v2.4s, v0.s[0]
	stp	q3, q4, [x17, #-16]
	subs	x18, x18, #8
	add	x17, x17, #32
	add	x16, x16, #32
	b.ne	.LBB0_10
