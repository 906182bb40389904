"""Common machinery for TensorOp microkernel emitters (stdlib only).

Conventions shared by all emitters
----------------------------------
* Input: one JSON object (the *spec*) on stdin, or from ``--spec FILE``.
* Output (default ``--format=json``): one JSON object on stdout, keys in a
  fixed order, so the same spec always produces byte-identical output.
* Errors in the spec (bad JSON, missing field, unknown field, bad value,
  illegal register budget): exit status 2, a single human-readable line on
  stderr that names the offending field, and ``{"error": "..."}`` on stdout.
* Assembly bodies are LLVM IR inline-asm strings: operand ``N`` is written
  ``$N``, a literal dollar sign (AT&T immediates) is written ``$$``.  Use
  :func:`substitute_operands` to turn such a body into plain assembly.
* Constraint strings follow LLVM IR syntax, see :func:`llvm_constraints`.
"""

import argparse
import json
import re
import sys

EXIT_SPEC_ERROR = 2


class SpecError(Exception):
    """An invalid spec.  ``field`` names the offending spec field (or None)."""

    def __init__(self, field, message):
        self.field = field
        self.message = message
        if field is None:
            text = message
        else:
            text = "field '%s': %s" % (field, message)
        super().__init__(text)


# --------------------------------------------------------------------------
# Spec field access / validation
# --------------------------------------------------------------------------

_MISSING = object()


def check_known_fields(spec, allowed):
    """Reject fields not in ``allowed`` (catches typos such as ``k_unrol``)."""
    if not isinstance(spec, dict):
        raise SpecError(None, "spec must be a JSON object, got %s" % type(spec).__name__)
    for key in spec:
        if key not in allowed:
            raise SpecError(key, "unknown field (allowed: %s)" % ", ".join(sorted(allowed)))


def _fetch(spec, field, default):
    if field in spec:
        return spec[field]
    if default is _MISSING:
        raise SpecError(field, "missing required field")
    return default


def get_int(spec, field, default=_MISSING, lo=None, hi=None):
    """Integer field (JSON booleans and floats are rejected)."""
    value = _fetch(spec, field, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(field, "must be an integer, got %s" % json.dumps(value))
    if lo is not None and value < lo:
        raise SpecError(field, "must be >= %d, got %d" % (lo, value))
    if hi is not None and value > hi:
        raise SpecError(field, "must be <= %d, got %d" % (hi, value))
    return value


def get_str(spec, field, default=_MISSING):
    value = _fetch(spec, field, default)
    if not isinstance(value, str):
        raise SpecError(field, "must be a string, got %s" % json.dumps(value))
    return value


def get_choice(spec, field, choices, default=_MISSING):
    """String field restricted to ``choices`` (a sequence of strings)."""
    value = _fetch(spec, field, default)
    if not isinstance(value, str) or value not in choices:
        raise SpecError(field, "must be one of %s, got %s"
                        % (", ".join('"%s"' % c for c in choices), json.dumps(value)))
    return value


# --------------------------------------------------------------------------
# LLVM inline asm helpers
# --------------------------------------------------------------------------

ALWAYS_CLOBBERED = ("memory", "dirflag", "fpsr", "flags")

# The CPU microkernel's inline-asm operand contract, the Python half of
# include/tensorop/Emitters/UKernelOperands.h (test_x86_gemm_fma checks that
# the two agree): operand $i is UKERNEL_OPERANDS[i], a 64-bit integer register
# tied in/out (constraints "=r" x7, then "0".."6", then clobbers), so the
# body may advance it.  C is at c + r*ldc_bytes + 4*j; A and B are packed
# panels (or strided rows, see each emitter); 1 <= m_rem <= mr,
# 1 <= n_rem <= nr.
UKERNEL_OPERANDS = ("a_panel", "b_panel", "c", "kc", "ldc_bytes", "m_rem", "n_rem")


def ukernel_operand_refs():
    """``("$0", ..., "$6")``: the body's references to UKERNEL_OPERANDS."""
    return tuple("$%d" % i for i in range(len(UKERNEL_OPERANDS)))


def llvm_constraints(num_inout, clobbers, reg_class="r"):
    """LLVM IR constraint string for ``num_inout`` tied in/out register operands.

    Example for 2 operands and clobbers ["zmm0", "rax"]:
    ``=r,=r,0,1,~{zmm0},~{rax},~{memory},~{dirflag},~{fpsr},~{flags}``.
    ``clobbers`` must not contain the always-clobbered names (they are added).
    """
    parts = ["=" + reg_class] * num_inout
    parts += [str(i) for i in range(num_inout)]
    seen = set()
    for name in list(clobbers) + list(ALWAYS_CLOBBERED):
        if name in seen:
            raise ValueError("duplicate clobber %s" % name)
        seen.add(name)
        parts.append("~{%s}" % name)
    return ",".join(parts)


def parse_constraints(text):
    """Split an LLVM constraint string into (outputs, inputs, clobbers)."""
    outputs, inputs, clobbers = [], [], []
    for part in text.split(","):
        m = re.fullmatch(r"~\{([A-Za-z0-9_]+)\}", part)
        if m:
            clobbers.append(m.group(1))
        elif part.startswith("="):
            outputs.append(part[1:])
        else:
            inputs.append(part)
    return outputs, inputs, clobbers


_OPERAND_RE = re.compile(r"\$(\$|[0-9]+|\{[0-9]+\})")


def substitute_operands(asm, operands):
    """Replace ``$N`` / ``${N}`` with ``operands[N]`` and ``$$`` with ``$``.

    ``operands`` is a sequence of strings (e.g. ``["%rdi", "%rsi"]``).
    Raises ValueError on references to operands that do not exist, on
    operand modifiers (``${0:x}``, unsupported here) and on a lone ``$``.
    """
    out = []
    pos = 0
    for m in re.finditer(r"\$", asm):
        if m.start() < pos:
            continue  # second '$' of a '$$' pair already consumed
        out.append(asm[pos:m.start()])
        mm = _OPERAND_RE.match(asm, m.start())
        if mm is None:
            raise ValueError("stray '$' in asm at offset %d" % m.start())
        tok = mm.group(1)
        if tok == "$":
            out.append("$")
        else:
            idx = int(tok.strip("{}"))
            if idx >= len(operands):
                raise ValueError("asm references operand $%d but only %d given"
                                 % (idx, len(operands)))
            out.append(operands[idx])
        pos = mm.end()
    out.append(asm[pos:])
    return "".join(out)


def referenced_operands(asm):
    """Set of operand indices referenced as ``$N`` in an inline-asm body."""
    refs = set()
    for m in _OPERAND_RE.finditer(asm):
        tok = m.group(1)
        if tok != "$":
            refs.add(int(tok.strip("{}")))
    return refs


def llvm_ir_asm_string(asm):
    """Escape an asm body for use inside a ``c"..."``-style LLVM IR string."""
    out = []
    for ch in asm:
        if ch == "\n":
            out.append("\\0A")
        elif ch == '"':
            out.append("\\22")
        elif ch == "\\":
            out.append("\\5C")
        elif ord(ch) < 0x20 or ord(ch) > 0x7E:
            out.append("\\%02X" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


class AsmWriter:
    """Accumulates assembly lines; ``text()`` joins them with ``\\n``."""

    def __init__(self, indent="  "):
        self.lines = []
        self.indent = indent

    def ins(self, text):
        self.lines.append(self.indent + text)

    def label(self, name):
        self.lines.append("%s:" % name)

    def comment(self, text):
        if "$" in text:
            raise ValueError("'$' is not allowed in asm comments")
        self.lines.append(self.indent + "# " + text)

    def text(self):
        return "\n".join(self.lines)


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def dump_json(obj):
    """Deterministic JSON text (key order as constructed, 1-space indent)."""
    return json.dumps(obj, indent=1, ensure_ascii=True) + "\n"


def _fail(message):
    sys.stderr.write("error: %s\n" % message.replace("\n", " "))
    sys.stdout.write(dump_json({"error": message}))
    sys.stdout.flush()
    return EXIT_SPEC_ERROR


def _parse_spec(text):
    """The JSON object of a spec, or SpecError."""
    try:
        spec = json.loads(text)
    except ValueError as e:
        raise SpecError(None, "spec is not valid JSON: %s" % e)
    if not isinstance(spec, dict):
        raise SpecError(None, "spec must be a JSON object")
    return spec


def _answer_text(result):
    """What an emitter prints for emit()'s result: a string verbatim, else JSON."""
    return result if isinstance(result, str) else dump_json(result)


def _run_batch(emit, args, stdin, stdout):
    """--batch: the same emit() as a single run, one spec per line."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            text = _answer_text(emit(_parse_spec(line), args.format, args.symbol))
            stdout.write(json.dumps({"answer": text}) + "\n")
        except SpecError as e:
            stdout.write(json.dumps({"error": str(e)}) + "\n")
    stdout.flush()
    return 0


def run_emitter(emit, description, epilog="", formats=("json",), argv=None,
                stdin=None, stdout=None):
    """Common ``main()`` for emitters.

    ``emit(spec, fmt, symbol)`` validates ``spec`` (raising SpecError) and
    returns either a dict (printed as JSON) or a string (printed verbatim).
    ``fmt``/``symbol`` come from ``--format``/``--symbol`` (or the spec's
    ``format``/``symbol`` fields, which the emitter may read itself).
    Returns the process exit code.
    """
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout

    class _Parser(argparse.ArgumentParser):
        def error(self, message):  # usage errors are spec errors too: exit 2
            self.print_usage(sys.stderr)
            raise SpecError(None, "command line: " + message)

    parser = _Parser(description=description, epilog=epilog,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", metavar="FILE",
                        help="read the JSON spec from FILE instead of stdin")
    parser.add_argument("--format", choices=formats, default=None,
                        help="output format (default: json)")
    parser.add_argument("--symbol", metavar="NAME", default=None,
                        help="function symbol for --format=function")
    parser.add_argument("--batch", action="store_true",
                        help="read one JSON spec per line of stdin and print "
                        "one JSON line per spec: {\"answer\": the text a "
                        "single run prints} or {\"error\": why}; exit 0 "
                        "(tools that emit thousands of kernels start Python "
                        "once)")
    try:
        args = parser.parse_args(argv)
        if args.batch:
            return _run_batch(emit, args, stdin, stdout)
        try:
            if args.spec:
                with open(args.spec, "r") as f:
                    text = f.read()
            else:
                text = stdin.read()
        except OSError as e:
            raise SpecError(None, "cannot read spec: %s" % e)
        result = emit(_parse_spec(text), args.format, args.symbol)
    except SpecError as e:
        return _fail(str(e))
    stdout.write(_answer_text(result))
    stdout.flush()
    return 0


# --------------------------------------------------------------------------
# Helpers for non-x86 emitters (RISC-V, AArch64)
# --------------------------------------------------------------------------

def llvm_constraints_for(num_inout, clobbers, always_clobbered=("memory",)):
    """Like :func:`llvm_constraints`, with the always-clobbered names given.

    The x86 names that :func:`llvm_constraints` appends (``dirflag``,
    ``fpsr``, ``flags``) mean nothing on other targets (LLVM drops clobbers it
    does not know without a word), so RISC-V and AArch64 emitters list their
    flag/state registers (``vl``, ``vtype``, ``nzcv``) among ``clobbers`` and
    pass ``always_clobbered=("memory",)``.
    """
    parts = ["=r"] * num_inout
    parts += [str(i) for i in range(num_inout)]
    seen = set()
    for name in list(clobbers) + list(always_clobbered):
        if name in seen:
            raise ValueError("duplicate clobber %s" % name)
        seen.add(name)
        parts.append("~{%s}" % name)
    return ",".join(parts)


class CommentAsmWriter(AsmWriter):
    """:class:`AsmWriter` with a target-specific comment marker.

    RISC-V assemblers take ``#``; AArch64 ones take ``//`` (``#`` starts an
    immediate there).
    """

    def __init__(self, indent="  ", comment_prefix="#"):
        super().__init__(indent)
        self.comment_prefix = comment_prefix

    def comment(self, text):
        if "$" in text:
            raise ValueError("'$' is not allowed in asm comments")
        self.lines.append(self.indent + self.comment_prefix + " " + text)


_SYMBOL_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def check_symbol(name):
    """Validate a function symbol for ``--format=function`` (SpecError)."""
    if not isinstance(name, str) or not _SYMBOL_RE.fullmatch(name):
        raise SpecError("symbol", "not a valid symbol name: %r" % (name,))
    return name


def get_pow2(spec, field, default=_MISSING, lo=None, hi=None):
    """Integer field that must be a power of two (within [lo, hi])."""
    value = get_int(spec, field, default, lo=lo, hi=hi)
    if value <= 0 or value & (value - 1):
        raise SpecError(field, "must be a power of two, got %d" % value)
    return value
