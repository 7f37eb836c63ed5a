import Metal

/// What the render tests share, written as Metal code would be.
enum RenderTargets {
    /// The functions called `main` of two GLSL sources, set as `descriptor`'s vertex and fragment functions.
    static func setFunctions(of descriptor: MTLRenderPipelineDescriptor, device: MTLDevice,
                             vertex: String, fragment: String) throws {
        descriptor.vertexFunction = try device.makeLibrary(source: vertex, options: nil).makeFunction(name: "main")
        descriptor.fragmentFunction = try device.makeLibrary(source: fragment, options: nil).makeFunction(name: "main")
    }

    /// A shared 2D texture to render into and read back.
    static func make(_ device: MTLDevice, pixelFormat: MTLPixelFormat = .rgba8Unorm, width: Int, height: Int) -> MTLTexture {
        let descriptor = MTLTextureDescriptor.texture2DDescriptor(pixelFormat: pixelFormat, width: width, height: height,
                                                                  mipmapped: false)
        descriptor.usage = [.renderTarget, .shaderRead]
        return device.makeTexture(descriptor: descriptor)!
    }

    /// The RGBA8 pixels of `texture`, read with `getBytes`, as a function of (x, y).
    static func pixels(of texture: MTLTexture) -> (Int, Int) -> [UInt8] {
        let width = texture.width
        var bytes = [UInt8](repeating: 0, count: width * texture.height * 4)
        texture.getBytes(&bytes, bytesPerRow: width * 4, from: MTLRegionMake2D(0, 0, width, texture.height), mipmapLevel: 0)
        return { x, y in Array(bytes[(y * width + x) * 4 ..< (y * width + x) * 4 + 4]) }
    }
}
