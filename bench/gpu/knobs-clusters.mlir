// Knobs for bench/gpu/tune-h200-clusters.mlir (tensorop tune --knobs): the
// builtin CTA tile (128x256, 2 consumer warpgroups) and a one-CTA-per-SM
// grid, fixed; stages, tile order and the cluster shape vary: 2 x 3 x 3 = 18
// points per GEMM, all of them tried with --budget=18.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @knobs() {
    %bm = transform.tune.knob<"block_m"> = 128 from options = [128] -> !transform.param<i64>
    %c = transform.tune.knob<"consumers"> = 2 from options = [2] -> !transform.param<i64>
    %bn = transform.tune.knob<"block_n"> = 256 from options = [256] -> !transform.param<i64>
    %s = transform.tune.knob<"stages"> options = [3, 4] -> !transform.param<i64>
    %g = transform.tune.knob<"group_m"> options = [4, 8, 16] -> !transform.param<i64>
    %ctas = transform.tune.knob<"ctas"> = 132 from options = [132] -> !transform.param<i64>
    transform.yield
  }
}
