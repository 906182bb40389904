"""Rows of a matrix read in place at a row stride known only at run time.

A strided view (gen's NAME_ex_ws, a model compiler's slice) gives the x86
microkernels A's row stride L in bytes as an asm operand instead of having
it compiled into displacements. x86 addressing scales an index by 1, 2, 4
or 8 only, so rows 4g..4g+3 are read at G, G+L, G+2L and G+3L, with 3L in
%r11 and G = A + 4gL, which %rax walks to as a k step visits the rows in
order: one lea per group of four rows and k step, and two scratch GPRs
(%rax and %r11, free inside both emitters' K loops).
"""


class RuntimeRows:
    """Addresses of rows `stride` (an operand reference such as "$7")
    apart from the pointer `base` (such as "$0")."""

    def __init__(self, base, stride):
        self.base, self.stride = base, stride
        self.group = 0

    def setup(self, w):
        """3L into %r11; before the K loop (after any use of %r11)."""
        w.ins("lea (%s,%s,2), %%r11" % (self.stride, self.stride))

    def start_step(self):
        """%rax holds no row group yet: a step restarts at row 0."""
        self.group = 0

    def mem(self, w, r, disp):
        """The memory operand of row r at byte offset `disp` along it; rows
        of a step must come in non-decreasing order after start_step."""
        group, row = divmod(r, 4)
        while self.group < group:
            w.ins("lea (%s,%s,4), %%rax" % (self.base if self.group == 0 else "%rax",
                                            self.stride))
            self.group += 1
        base = self.base if group == 0 else "%rax"
        index = ["", ",%s,1" % self.stride, ",%s,2" % self.stride, ",%r11,1"][row]
        return "%s(%s%s)" % (disp if disp else "", base, index)
