// Compiled by the SPIRVCompiler plugin through SwiftGPU's Metal Shading Language front end:
// one module per entry point, found by its name.
#include <metal_stdlib>
using namespace metal;

struct Scale { float factor; float offset; };

kernel void msl_scale(device const float* input [[buffer(0)]],
                      device float* output [[buffer(1)]],
                      constant Scale& scale [[buffer(2)]],
                      uint index [[thread_position_in_grid]])
{
    output[index] = fma(input[index], scale.factor, scale.offset);
}

/* A second entry point in the same file. */
kernel void msl_negate(device float* values [[buffer(0)]], uint index [[thread_position_in_grid]])
{
    values[index] = -values[index];
}
