#version 450
// Samples fragment texture 0 with fragment sampler 0 (bindings 96 and 112).
layout(location = 0) in vec2 vUV;
layout(location = 0) out vec4 outColor;
layout(set = 0, binding = 96) uniform texture2D image;
layout(set = 0, binding = 112) uniform sampler imageSampler;

void main() {
    outColor = texture(sampler2D(image, imageSampler), vUV);
}
