#version 450
// vertex_main from the original's Shaders.metal (MIT, see LICENSE), in GLSL: the
// [[stage_in]] VertexIn's attributes are inputs at their attribute numbers, and
// `constant float2 &positionOffset [[buffer(1)]]` is a uniform block at binding 1.
layout(location = 0) in vec2 in_position;   // [[attribute(0)]]
layout(location = 1) in vec4 in_color;      // [[attribute(1)]]
layout(std140, binding = 1) uniform Constants { vec2 positionOffset; };
layout(location = 0) out vec4 out_color;

void main()
{
    gl_Position = vec4(in_position + positionOffset, 0.0, 1.0);
    out_color = in_color;
}
