// Compiled by the SPIRVCompiler plugin through SwiftGPU's Metal Shading Language front end:
// functions that need more than their SPIR-V (a constexpr sampler, an argument under a
// function constant, a texture asked is_null_texture, the grid's size, threadgroup memory
// the app sizes), which the build
// writes into each module for the library to read. The tests compile this same file at run
// time too and compare the two libraries.
#include <metal_stdlib>
using namespace metal;

constant bool msl_tinted [[function_constant(0)]];

vertex float4 msl_cover(uint id [[vertex_id]]) {
    float2 p = float2((id << 1) & 2, id & 2);
    return float4(p * 2 - 1, 0, 1);
}

// A 2x2 image tiled over an 8x8 target: twice the coordinates, repeated.
fragment float4 msl_tiled(float4 position [[position]], texture2d<float> image [[texture(0)]]) {
    constexpr sampler nearestRepeat(filter::nearest, address::repeat);
    return image.sample(nearestRepeat, position.xy / 4);
}

// Red where no texture is bound, else its first texel; times the tint where msl_tinted.
fragment float4 msl_paint(texture2d<float> image [[texture(3)]],
                          constant float4& tint [[buffer(2), function_constant(msl_tinted)]]) {
    float4 color = is_null_texture(image) ? float4(1, 0, 0, 1) : image.read(uint2(0));
    return msl_tinted ? color * tint : color;
}

kernel void msl_grid(device uint4* out [[buffer(0)]], uint2 position [[thread_position_in_grid]],
                     uint2 threads [[threads_per_grid]], uint3 groups [[threadgroups_per_grid]]) {
    out[position.y * threads.x + position.x] = uint4(threads, groups.xy);
}

// Each threadgroup's sum, through threadgroup memory whose length the app sets.
kernel void msl_group_sums(device const float* input [[buffer(0)]], device float* output [[buffer(1)]],
                           threadgroup float* scratch [[threadgroup(0)]], uint i [[thread_position_in_grid]],
                           uint t [[thread_position_in_threadgroup]], uint n [[threads_per_threadgroup]],
                           uint g [[threadgroup_position_in_grid]]) {
    scratch[t] = input[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (t == 0) {
        float sum = 0;
        for (uint k = 0; k < n; k++) { sum += scratch[k]; }
        output[g] = sum;
    }
}
