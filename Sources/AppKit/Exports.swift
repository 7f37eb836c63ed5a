// What a Metal sample's model or renderer code uses of `import AppKit` besides AppKit's
// windows, views and controls, which a port's Linux shell replaces (decision 0105):
// Foundation (NSObject, CGSize, Dispatch), and QuartzCore's media time, which AppKit
// brings as Apple's does.
@_exported import Foundation
