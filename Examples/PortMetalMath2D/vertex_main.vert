#version 450
// vertex_main from the original's Shaders.metal (MIT, see LICENSE), in GLSL: the
// [[stage_in]] VertexIn's attributes are inputs at their attribute numbers, and
// `constant float4x4 &transform [[buffer(1)]]` is a uniform block at binding 1 (a column-major
// mat4, as simd_float4x4 is laid out).
layout(location = 0) in vec2 in_position;   // [[attribute(0)]]
layout(location = 1) in vec4 in_color;      // [[attribute(1)]]
layout(std140, binding = 1) uniform Constants { mat4 transform; };
layout(location = 0) out vec4 out_color;

void main()
{
    gl_Position = transform * vec4(in_position, 0.0, 1.0);
    out_color = in_color;
}
