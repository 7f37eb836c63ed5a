#version 450
// Benchmark B6: writes draw i's indirect arguments (VkDrawIndirectCommand, Metal's
// MTLDrawPrimitivesIndirectArguments): 3 vertices of triangle i % 1024 of B2's scene.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Arguments { uvec4 draws[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(draws.length())) {
        draws[i] = uvec4(3u, 1u, (i % 1024u) * 3u, 0u);
    }
}
