#version 450
// Texturing.metal's vertex_textured_rect (metal-ui-basics; MIT, see LICENSE), line for line.
// Its [[stage_in]] attributes are inputs at their attribute numbers (in_x reads as in.x), and
// its projectionMatrix at [[buffer(BindIndex::constants)]] (9) is a uniform block at binding 9.

layout(location = 0) in vec2 in_position;
layout(location = 1) in vec2 in_center;
layout(location = 2) in vec2 in_halfExtent;
layout(location = 3) in vec2 in_uvCenter;
layout(location = 4) in vec2 in_uvHalfExtent;

layout(std140, binding = 9) uniform Constants { mat4 projectionMatrix; };

layout(location = 0) out vec2 out_uvCoords;

void main()
{
    vec4 position = vec4(in_center + in_halfExtent * in_position, 0.0f, 1.0f);
    vec2 uv = in_uvCenter + in_uvHalfExtent * in_position;

    gl_Position = projectionMatrix * position;
    out_uvCoords = uv;
}
