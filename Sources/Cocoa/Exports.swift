// `import Cocoa` brings AppKit and Foundation, as Apple's umbrella does; of AppKit, what a
// Metal sample's renderer uses besides its views (decision 0105).
@_exported import AppKit
