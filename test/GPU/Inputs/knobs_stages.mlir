// Tuner knobs (test/GPU/tune-knobs.test): stages 2 or 3, block_m fixed.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @knobs() {
    %stages = transform.tune.knob<"stages"> options = [2, 3] -> !transform.param<i64>
    %bm = transform.tune.knob<"block_m"> = 128 from options = [64, 128] -> !transform.param<i64>
    transform.yield
  }
}
