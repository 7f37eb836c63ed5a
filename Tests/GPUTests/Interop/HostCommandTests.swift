import CVulkan
import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// A host's own Vulkan commands beside SwiftGPU's: on the shared queue, and inside
/// SwiftGPU's compute and render encoders with the resources they touch declared.
@Suite("Host commands in SwiftGPU's queue and encoders", .validated)
struct HostCommandTests {
    @Test("the host submits its own command buffer on SwiftGPU's queue under its lock; SwiftGPU's work follows it")
    func hostSubmitsOnSharedQueue() throws {
        let gpu = try TestGPU()
        let handles = gpu.device.vulkanHandles
        #expect(handles.queueFamilyIndex == gpu.device.backend.physical.queueFamily)
        #expect(handles.apiVersion == Device.vulkanAPIVersion)
        #expect(handles.deviceExtensions.contains("VK_KHR_swapchain"))
        let counter = try gpu.device.makeBuffer(length: 16)
        let device = handles.device
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.queueFamilyIndex = handles.queueFamilyIndex
        var pool: VkCommandPool?
        #expect(vkCreateCommandPool(device, &poolInfo, nil, &pool) == VK_SUCCESS)
        defer { vkDestroyCommandPool(device, pool, nil) }
        var allocation = VkCommandBufferAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        allocation.commandPool = pool
        allocation.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        allocation.commandBufferCount = 1
        var commands: VkCommandBuffer?
        #expect(vkAllocateCommandBuffers(device, &allocation, &commands) == VK_SUCCESS)
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        vkBeginCommandBuffer(commands, &begin)
        vkCmdFillBuffer(commands, counter.vulkanBuffer, 0, 16, 40)
        // The fill is made visible to the host and to later commands on the queue.
        var barrier = VkMemoryBarrier()
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER
        barrier.srcAccessMask = VkAccessFlags(VK_ACCESS_TRANSFER_WRITE_BIT.rawValue)
        barrier.dstAccessMask = VkAccessFlags(VK_ACCESS_HOST_READ_BIT.rawValue | VK_ACCESS_MEMORY_READ_BIT.rawValue
            | VK_ACCESS_MEMORY_WRITE_BIT.rawValue)
        vkCmdPipelineBarrier(commands, VkPipelineStageFlags(VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue),
                             VkPipelineStageFlags(VK_PIPELINE_STAGE_HOST_BIT.rawValue | VK_PIPELINE_STAGE_ALL_COMMANDS_BIT.rawValue),
                             0, 1, &barrier, 0, nil, 0, nil)
        vkEndCommandBuffer(commands)
        var fenceInfo = VkFenceCreateInfo()
        fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        var fence: VkFence?
        vkCreateFence(device, &fenceInfo, nil, &fence)
        defer { vkDestroyFence(device, fence, nil) }
        let submitted = withUnsafePointer(to: commands) { commandsPointer in
            var submit = VkSubmitInfo()
            submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
            submit.commandBufferCount = 1
            submit.pCommandBuffers = commandsPointer
            return gpu.device.withVulkanQueue { queue in
                #expect(queue == handles.queue)
                return vkQueueSubmit(queue, 1, &submit, fence)
            }
        }
        #expect(submitted == VK_SUCCESS)
        #expect(vkWaitForFences(device, 1, &fence, VkBool32(VK_TRUE), 5_000_000_000) == VK_SUCCESS)
        #expect(counter.contents().load(as: UInt32.self) == 40)
        let cb = try gpu.incrementBuffer(counter, by: 2)
        cb.commit()
        cb.waitUntilCompleted()
        #expect(counter.contents().load(as: UInt32.self) == 42)
    }

    @Test("a compute encoder: the host's fill of a declared buffer is waited for by the next dispatch")
    func hostCommandsInComputeEncoder() throws {
        let gpu = try TestGPU()
        let counter = try gpu.buffer([UInt32(5)])
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeComputeCommandEncoder()
        try gpu.encodeIncrement(counter, by: 2, into: encoder)
        // The host overwrites what the dispatch wrote: a barrier first, then one more before
        // the dispatch that reads the host's value.
        encoder.useResource(counter, usage: .write)
        encoder.withUnsafeVulkanCommandBuffer { commands in vkCmdFillBuffer(commands, counter.vulkanBuffer, 0, 4, 40) }
        encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        let context = try #require(cb.record.context)
        #expect(context.encoding.hazards.barriers == 2)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 42)
    }

    @Test("a render pass: the host's clears land, and SwiftGPU's next draw sets its own viewport again")
    func hostCommandsInRenderPass() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        let (cb, encoder) = try RenderTests.drawTriangle(gpu, into: target)
        encoder.useResource(target, usage: .write)
        encoder.withUnsafeVulkanCommandBuffer { commands in
            // Red over the top-left corner (outside the triangle) and over its middle, and a
            // 4×4 viewport that SwiftGPU's next draw must not inherit.
            var clear = VkClearAttachment()
            clear.aspectMask = VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT.rawValue)
            clear.colorAttachment = 0
            clear.clearValue.color.float32 = (1, 0, 0, 1)
            var rects = [(0, 0), (28, 36)].map { x, y in
                VkClearRect(rect: VkRect2D(offset: VkOffset2D(x: Int32(x), y: Int32(y)), extent: VkExtent2D(width: 8, height: 8)),
                            baseArrayLayer: 0, layerCount: 1)
            }
            vkCmdClearAttachments(commands, 1, &clear, 2, &rects)
            var viewport = VkViewport(x: 0, y: 0, width: 4, height: 4, minDepth: 0, maxDepth: 1)
            vkCmdSetViewport(commands, 0, 1, &viewport)
        }
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        let pixels = try gpu.pixels(of: target)
        #expect(texel(pixels, width: 64, x: 2, y: 2) == [255, 0, 0, 255], "the host's clear in the corner")
        let middle = texel(pixels, width: 64, x: 32, y: 40)
        #expect(middle != [255, 0, 0, 255] && middle[1] > 40 && middle[2] > 40,
                "the second draw covered the host's red in the middle at full size: \(middle)")
        #expect(texel(pixels, width: 64, x: 62, y: 62) == [0, 0, 64, 255], "the clear colour outside both")
    }

    @Test("declaring the same resource again and again retains it once and records one access: no memory grows")
    func repeatedUseResource() throws {
        let gpu = try TestGPU()
        let buffer = try gpu.device.makeBuffer(length: 64)
        let texture = try gpu.renderTarget()
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeComputeCommandEncoder()
        encoder.useResource(buffer, usage: .read)
        encoder.useResource(texture, usage: .read)
        let retained = cb.record.context!.encoding.retained.count
        for _ in 0..<100_000 {
            encoder.useResource(buffer, usage: .read)
            encoder.useResource(texture, usage: .read)
        }
        #expect(cb.record.context!.encoding.retained.count == retained)
        #expect(cb.record.context!.encoding.hostResources.count == 2)
        // Encoder calls work again once the host's recording is done.
        encoder.withUnsafeVulkanCommandBuffer { _ in }
        encoder.useResource(buffer, usage: [.read, .write])
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
    }
}
