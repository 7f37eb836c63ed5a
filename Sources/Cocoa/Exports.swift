// What of `import Cocoa` a Metal sample's renderer uses besides AppKit's windows and
// controls, which a port's Linux shell replaces (decision 0105): Foundation (NSObject,
// CGSize, Dispatch) and QuartzCore's media time.
@_exported import Foundation
