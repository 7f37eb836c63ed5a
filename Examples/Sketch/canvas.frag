#version 450
// The canvas, texel for texel (a constant nearest sampler, fragment sampler 0).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 outColor;
layout(binding = 96) uniform texture2D canvas;
layout(binding = 112) uniform sampler nearest;

void main() {
    outColor = texture(sampler2D(canvas, nearest), uv);
}
