"""Shared helpers for TensorOp's microkernel emitters (python_emitters/*.py).

Every emitter is a standalone script that reads a JSON spec (stdin or
``--spec FILE``), validates it, and prints either a JSON description of an
LLVM inline-asm block or, for testing, a standalone assembly file.  The helpers
in :mod:`tensorop_emit.common` implement the parts that are the same for every
ISA: argument parsing, spec validation with field-named errors (exit code 2),
deterministic JSON output, LLVM constraint strings and ``$N`` operand
substitution.

Python standard library only.
"""

from .common import (  # noqa: F401
    EXIT_SPEC_ERROR,
    AsmWriter,
    UKERNEL_OPERANDS,
    SpecError,
    check_known_fields,
    dump_json,
    get_choice,
    get_int,
    get_str,
    llvm_constraints,
    llvm_ir_asm_string,
    parse_constraints,
    referenced_operands,
    run_emitter,
    substitute_operands,
    ukernel_operand_refs,
)
