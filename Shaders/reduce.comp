#version 450
// One pass of a sum reduction: each workgroup of 256 threads adds up to 256 input
// values and writes one partial sum. Run it again on the partial sums until one remains.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Input { uint values[]; };
layout(set = 0, binding = 1) writeonly buffer Output { uint partials[]; };
layout(set = 0, binding = 3) uniform Params { uint count; };

shared uint scratch[256];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint local = gl_LocalInvocationID.x;
    scratch[local] = i < count ? values[i] : 0u;
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1u) {
        if (local < stride) {
            scratch[local] += scratch[local + stride];
        }
        barrier();
    }
    if (local == 0u) {
        partials[gl_WorkGroupID.x] = scratch[0];
    }
}
