#if canImport(UIKit) && !os(watchOS)
@_spi(Capture) import AnnaFocusPaths
import ObjectiveC
import UIKit

/// Installs hooks on UIKit's own classes: the implementation a class uses for a method
/// is replaced by a block that calls the original. In place when the class defines
/// the method itself; otherwise an override is added to that UIKit class, calling the
/// inherited implementation, so the superclass is untouched. Hooks are never removed
/// (see ``AnnaCapture/disableAutomaticCapture()``). `IMP` is an `OpaquePointer` in
/// Swift (objc-api.h declares it with the variadic prototype for Swift), so originals
/// are called through `unsafeBitCast` to the method's `@convention(c)` type.
enum MethodHooks {
    static func hook(_ type: AnyClass, _ selector: Selector, _ make: (IMP) -> Any) {
        guard let method = class_getInstanceMethod(type, selector) else { return }
        let replacement = imp_implementationWithBlock(make(method_getImplementation(method)))
        if !class_addMethod(type, selector, replacement, method_getTypeEncoding(method)) {
            method_setImplementation(method, replacement)
        }
    }
}

/// An Objective-C class as a hashable key.
struct ObjCClass: Hashable {
    let type: AnyClass
    static func == (lhs: ObjCClass, rhs: ObjCClass) -> Bool { lhs.type === rhs.type }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type)) }
}

/// ``Anna/DelegateHookRuntime`` over the Objective-C runtime: a class's own methods
/// come from `class_copyMethodList`, so an inherited implementation is never taken for
/// the class's own.
struct ObjCRuntime: DelegateHookRuntime {
    func superclass(of type: ObjCClass) -> ObjCClass? {
        class_getSuperclass(type.type).map(ObjCClass.init)
    }

    func ownImplementation(of selector: Selector, in type: ObjCClass) -> IMP? {
        ownMethod(selector, in: type.type).map(method_getImplementation)
    }

    func replaceOwnImplementation(of selector: Selector, in type: ObjCClass, with implementation: IMP) {
        if let method = ownMethod(selector, in: type.type) { method_setImplementation(method, implementation) }
    }

    private func ownMethod(_ selector: Selector, in type: AnyClass) -> Method? {
        var count: UInt32 = 0
        guard let methods = class_copyMethodList(type, &count) else { return nil }
        defer { free(methods) }
        for index in 0..<Int(count) where method_getName(methods[index]) == selector {
            return methods[index]
        }
        return nil
    }
}
#endif
