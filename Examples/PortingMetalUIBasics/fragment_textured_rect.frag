#version 450
// Texturing.metal's fragment_textured_rect (metal-ui-basics; MIT, see LICENSE), line for
// line. tex2d is [[texture(0)]] (fragment binding 96); the constexpr sampler is declared at
// fragment sampler index 0 (binding 112) and fixed there by the host with
// makeFunction(name:constantSamplers:) (ImageViewController.swift, Texturing.swift).

layout(location = 0) in vec2 in_uvCoords;
layout(location = 0) out vec4 out_color;

layout(binding = 96) uniform texture2D tex2d;
layout(binding = 112) uniform sampler linearSampler;

void main()
{
    out_color = texture(sampler2D(tex2d, linearSampler), in_uvCoords);
}
