// A port of MetalUI/Common/DetailViewController.swift from
// github.com/metal-by-example/metal-ui-basics at commit
// 5b527efa32730dacf0f4b088d08cc6cd9152df34 (MIT; see LICENSE). Every line is the original's
// except those marked `// SwiftGPU:`; MTKView is MetalKitStandIn.swift's.

import Foundation   // SwiftGPU: was `import AppKit` (NSViewController).
import GPU   // SwiftGPU: was `import MetalKit`.

class DetailViewController : MTKViewDelegate {   // SwiftGPU: no NSViewController on Linux.
    class var title: String {
        get {
            return "Untitled"
        }
    }
    
    var device = try! Device.makeDefault()   // SwiftGPU: MTLCreateSystemDefaultDevice()!.
    var commandQueue: CommandQueue!   // SwiftGPU: MTLCommandQueue.

    var mtkView: MTKView!
    var view: MTKView!   // SwiftGPU: NSViewController's `view`.

    func loadView() {   // SwiftGPU: was `override` (NSViewController calls it; main.swift does here).
        
        device = try! Device.makeDefault()   // SwiftGPU: MTLCreateSystemDefaultDevice()!.
        
        commandQueue = try? device.makeCommandQueue()   // SwiftGPU: throws where Metal returns nil.

        mtkView = MTKView(frame: CGRect(x: 0, y: 0, width: 980, height: 980), device: device)   // SwiftGPU: CGRect.zero; AppKit sizes the view, here it is the size the sample's tiles need.
        mtkView.delegate = self

        view = mtkView
        
        commonInit()
    }
    
    private func commonInit() {
        commandQueue = try? device.makeCommandQueue()   // SwiftGPU: throws where Metal returns nil.

        mtkView.delegate = self
        mtkView.enableSetNeedsDisplay = true
        mtkView.isPaused = true
        mtkView.clearColor = ClearColor.darkBackground   // SwiftGPU: MTLClearColor.

        makePipeline()
        makeResources()
        addSampleData()
    }

    func makePipeline() { /* override point */ }
    
    func makeResources() { /* override point */ }
    
    func addSampleData() { /* override point */ }

    func draw(in renderCommandEncoder: RenderCommandEncoder) { /* override point */ }   // SwiftGPU: MTLRenderCommandEncoder.

    // MARK: MTKViewDelegate

    func mtkView(_ view: MTKView, drawableSizeWillChange size: CGSize) {
    }

    func draw(in view: MTKView) {
        guard let commandBuffer = try? commandQueue.makeCommandBuffer() else { return }   // SwiftGPU: throws where Metal returns nil.
        
        guard let passDescriptor = mtkView.currentRenderPassDescriptor else { return }
        
        guard let renderCommandEncoder = try? commandBuffer.makeRenderCommandEncoder(descriptor: passDescriptor) else {   // SwiftGPU: throws.
            return
        }

        draw(in: renderCommandEncoder)
        
        renderCommandEncoder.endEncoding()

        if let drawable = mtkView.currentDrawable {
            commandBuffer.present(drawable)
        }

        commandBuffer.commit()
    }
}
