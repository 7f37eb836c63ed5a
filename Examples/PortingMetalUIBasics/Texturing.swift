// Not part of the ported sample: the host side of Texturing.metal's
// `constexpr sampler linearSampler(coord::normalized, address::clamp_to_edge, filter::linear)`,
// which GLSL cannot declare in the shader.

import GPU

/// The fragment function's constant sampler, as the MSL declares it.
var linearSampler: SamplerDescriptor {
    let descriptor = SamplerDescriptor()
    descriptor.normalizedCoordinates = true
    descriptor.sAddressMode = .clampToEdge
    descriptor.tAddressMode = .clampToEdge
    descriptor.rAddressMode = .clampToEdge
    descriptor.minFilter = .linear
    descriptor.magFilter = .linear
    return descriptor
}
