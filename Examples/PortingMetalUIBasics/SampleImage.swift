// Not part of the ported sample: the picture its MTKTextureLoader loaded (nine photographs
// in a 3×3 grid, not redistributed here), made as a 3×3 grid of flat colours so that each
// tile's pixels can be checked.

import GPU

/// Texels per side of one cell of the grid.
let sampleCellSize = 32

/// The premultiplied RGBA colour of cell (`row`, `column`): red steps with the column,
/// green with the row; the centre cell is half transparent, to show the sample's blending.
func sampleColor(row: Int, column: Int) -> [UInt8] {
    let opaque: [Double] = [Double(60 + 90 * column), Double(60 + 90 * row), 200]
    let alpha = row == 1 && column == 1 ? 128.0 : 255.0
    return opaque.map { UInt8(($0 * alpha / 255).rounded()) } + [UInt8(alpha)]
}

/// A 96×96 rgba8Unorm texture of the grid, for shader reading.
func makeSampleImage(device: Device) throws -> Texture {
    let size = 3 * sampleCellSize
    let descriptor = TextureDescriptor()
    descriptor.pixelFormat = .rgba8Unorm
    descriptor.width = size
    descriptor.height = size
    descriptor.usage = .shaderRead
    let texture = try device.makeTexture(descriptor: descriptor)
    var texels: [UInt8] = []
    for y in 0..<size {
        for x in 0..<size { texels += sampleColor(row: y / sampleCellSize, column: x / sampleCellSize) }
    }
    texture.replace(region: Region(x: 0, y: 0, width: size, height: size), mipmapLevel: 0, withBytes: texels,
                    bytesPerRow: size * 4)
    return texture
}
