@_exported import AppLifecycle
@_exported import FramePacing
