// Calls a function defined in another file of the target (msl_common.metal), which the
// build links in.
#include <metal_stdlib>
using namespace metal;
#include "msl_common.h"

kernel void msl_linked(device float* values [[buffer(0)]], constant MSLScale& scale [[buffer(1)]],
                       uint index [[thread_position_in_grid]]) {
    values[index] = msl_scaled(values[index], scale);
}
