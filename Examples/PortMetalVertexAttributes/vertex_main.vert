#version 450
// vertex_main from the original's Shaders.metal (MIT, see LICENSE), in GLSL: the
// [[stage_in]] VertexIn's attributes are inputs at their attribute numbers.
layout(location = 0) in vec2 in_position;   // [[attribute(0)]]
layout(location = 1) in vec4 in_color;      // [[attribute(1)]]
layout(location = 0) out vec4 out_color;

void main()
{
    gl_Position = vec4(in_position, 0.0, 1.0);
    out_color = in_color;
}
