#!/usr/bin/env python3
"""Writes one model-written emitter script per hostile kernel.

    hostile_kernels.py DIR

Each script DIR/llm_<arch>_<case>.py ignores the spec beyond mr and nr and
prints KERNELS[arch][case] (followed by a store, so that only the hostile
part can be what is refused) as its microkernel. The allowlist-*.mlir tests
name these emitters in sketches and expect each refusal by name.
"""
import json
import os
import sys

STORE = {"x86": "  vmovups %zmm1, ($2)\n",
         "riscv": "  vse32.v v0, ($2)\n",
         "arm": "  str q0, [$2]\n"}

KERNELS = {
    "x86": {
        "syscall": "  movl $$2, %eax\n  syscall\n",
        "sysenter": "  sysenter\n",
        "int80": "  int $$0x80\n",
        "int3": "  int3\n",
        "ud2": "  ud2\n",
        "hlt": "  hlt\n",
        "rdtsc": "  rdtsc\n",
        "cpuid": "  cpuid\n",
        "wrmsr": "  wrmsr\n",
        "vmcall": "  vmcall\n",
        "rep_movsb": "  rep movsb\n",
        "call_reg": "  call *%rax\n",
        "call_label": "  call 1f\n1:\n",
        "ret": "  ret\n",
        "jmp_reg": "  jmp *%rax\n",
        "jmp_mem": "  jmp *($0)\n",
        "jmp_outside": "  jmp somewhere_else\n",
        "jmp_absolute": "  jmp 0x401000\n",
        "push": "  pushq %rax\n",
        "rsp_write": "  movq %rax, %rsp\n",
        "rsp_memory": "  movq %rax, 8(%rsp)\n",
        "rip_write": "  movq %rax, 0(%rip)\n",
        "rip_lea": "  leaq 1f(%rip), %rax\n1:\n",
        "label_value": "  movabsq $$1f, %rax\n1:\n",
        "fs": "  movq %fs:40, %rax\n",
        "absolute": "  movq %rax, 0x601000\n",
        "byte": "  .byte 0x0f, 0x05\n",
        "section": "  .data\n",
        "p2alignw": "  .p2alignw 4, 0x050f\n",
        "nop": "  nop\n",
        # Accepted: vector loads, FMA, a loop over k, the store.
        "benign": ("  vxorps %zmm1, %zmm1, %zmm1\n1:\n  vmovups ($1), %zmm0\n"
                   "  vfmadd231ps ($0){1to16}, %zmm0, %zmm1\n  addq $$4, $0\n"
                   "  addq $$64, $1\n  decq $3\n  jnz 1b\n  prefetcht0 64($1)\n"),
    },
    "riscv": {
        "ecall": "  ecall\n",
        "ebreak": "  ebreak\n",
        "csr": "  csrr a0, cycle\n",
        "jalr": "  jalr ra, 0(a0)\n",
        "jr": "  jr a0\n",
        "ret": "  ret\n",
        "call": "  call somewhere_else\n",
        "fence_i": "  fence.i\n",
        "auipc": "  auipc a0, 0\n",
        "sp": "  sd a0, 0(sp)\n",
        "tp": "  mv a0, tp\n",
        "insn": "  .insn i 0x73, 0, x0, x0, 0\n",
        "word": "  .word 0x73\n",
        "benign": ("  vsetivli zero, 4, e32, m1, ta, ma\n  vmv.v.i v0, 0\n1:\n"
                   "  flw fa0, 0($0)\n  vle32.v v1, ($1)\n  vfmacc.vf v0, fa0, v1\n"
                   "  addi $0, $0, 4\n  addi $1, $1, 16\n  addi $3, $3, -1\n"
                   "  bnez $3, 1b\n  j 2f\n2:\n"),
    },
    "arm": {
        "svc": "  svc #0\n",
        "hvc": "  hvc #0\n",
        "brk": "  brk #0\n",
        "mrs": "  mrs x0, tpidr_el0\n",
        "msr": "  msr tpidr_el0, x0\n",
        "br": "  br x0\n",
        "blr": "  blr x0\n",
        "bl": "  bl somewhere_else\n",
        "ret": "  ret\n",
        "inst": "  .inst 0xd4000001\n",
        "ic": "  ic ivau, x0\n",
        "dc": "  dc civac, x0\n",
        "sp": "  str x0, [sp]\n",
        "adr": "  adr x0, .\n",
        "benign": ("  movi v0.4s, #0\n1:\n  ld1r {v1.4s}, [$0], #4\n  ldr q2, [$1], #16\n"
                   "  fmla v0.4s, v2.4s, v1.4s\n  subs $3, $3, #1\n  b.ne 1b\n"
                   "  prfm pldl1keep, [$1, #64]\n"),
    },
}

SCRIPT = """import json, sys
spec = json.load(sys.stdin)
print(json.dumps({{"name": "hostile", "asm": {asm!r},
                  "constraints": "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,~{{memory}}",
                  "dialect": "att", "mr": spec["mr"], "nr": spec["nr"]}}))
"""

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for arch, kernels in KERNELS.items():
    for case, asm in kernels.items():
        if case != "nop":
            asm += STORE[arch]
        with open(os.path.join(out, "llm_%s_%s.py" % (arch, case)), "w") as f:
            f.write(SCRIPT.format(asm=asm))
