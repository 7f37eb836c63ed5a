// Apple's MetalKit brings Metal's names and CGSize with it; so does this one.
@_exported import Foundation
@_exported import Metal
