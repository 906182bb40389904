"""What gen_nchw.py and gen_depthwise.py share: the layer's arguments, its
output size, and the module text (torch-mlir's form: the convolution on
tensors, a zero tensor.pad in front of it, a zero-filled init;
destination-passing on memrefs for the bare-pointer ABI, fp32)."""
import argparse


def parse(doc, dims):
    """The command line: `dims` (names of the integer arguments, which end
    with stride pad dilation) and --name; adds OH and OW."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    for d in dims:
        p.add_argument(d, type=int)
    p.add_argument("--name", default="conv")
    a = p.parse_args()
    r, s = a.r, a.s
    a.oh = (a.h + 2 * a.pad - a.dilation * (r - 1) - 1) // a.stride + 1
    a.ow = (a.w + 2 * a.pad - a.dilation * (s - 1) - 1) // a.stride + 1
    return a


def t(*d):
    return "tensor<" + "x".join(map(str, d)) + "xf32>"


def m(*d):
    return "memref<" + "x".join(map(str, d)) + "xf32>"


def emit(a, title, script, op, inp, flt, out, padded, pad_low):
    """Prints @NAME(in, flt, out) running the linalg convolution `op` on
    shapes inp, flt, out, headed by "// TITLE (bench/conv/SCRIPT)";
    `padded` is the padded input's shape and `pad_low` the tensor.pad
    amounts per dimension (high the same)."""
    print(f"""// {title} (bench/conv/{script})
func.func @{a.name}(%inm: {m(*inp)}, %fm: {m(*flt)}, %outm: {m(*out)}) {{
  %zero = arith.constant 0.0 : f32
  %in = bufferization.to_tensor %inm restrict : {m(*inp)} to {t(*inp)}
  %flt = bufferization.to_tensor %fm restrict : {m(*flt)} to {t(*flt)}""")
    src, srct = "%in", t(*inp)
    if a.pad:
        amounts = ", ".join(map(str, pad_low))
        print(f"""  %padded = tensor.pad %in low[{amounts}] high[{amounts}] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  }} : {t(*inp)} to {t(*padded)}""")
        src, srct = "%padded", t(*padded)
    DL, SD = a.dilation, a.stride
    print(f"""  %e = tensor.empty() : {t(*out)}
  %z = linalg.fill ins(%zero : f32) outs(%e : {t(*out)}) -> {t(*out)}
  %r = {op} {{dilations = dense<{DL}> : tensor<2xi64>, strides = dense<{SD}> : tensor<2xi64>}}
         ins({src}, %flt : {srct}, {t(*flt)}) outs(%z : {t(*out)}) -> {t(*out)}
  bufferization.materialize_in_destination %r in restrict writable %outm : ({t(*out)}, {m(*out)}) -> ()
  return
}}""")
