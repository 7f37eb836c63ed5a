#version 450
// Post-process: inverts the colour of every texel of an rgba8 storage image in place.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 32, rgba8) uniform image2D image;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(image)))) { return; }
    vec4 c = imageLoad(image, p);
    imageStore(image, p, vec4(1.0 - c.rgb, c.a));
}
