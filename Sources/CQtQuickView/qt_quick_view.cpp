// CQtQuickView.h over Qt 6 Quick. No class here needs moc: the window and the item override
// virtual functions, and no signal is connected.
#include "CQtQuickView.h"

// Qt 6.4's headers declare literal operators in a form newer compilers deprecate.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-literal-operator"
#include <QtGui/QGuiApplication>
#include <QtGui/QKeyEvent>
#include <QtGui/QVulkanFunctions>
#include <QtGui/QVulkanInstance>
#include <QtQuick/QQuickGraphicsDevice>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <QtQuick/QSGSimpleTextureNode>
#include <QtQuick/QSGTexture>
#include <QtQuick/qsgtexture_platform.h>
#pragma clang diagnostic pop

#include <cstdio>
#include <memory>

namespace {

/// What the item shows: SwiftGPU's image, written on the GUI thread between Qt's frames and
/// read by the scene graph's synchronisation, on the same thread (the basic render loop).
struct Shown {
    VkImage image = VK_NULL_HANDLE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    QSize size;
};

/// A texture node that owns its QSGTexture, so that the texture goes with the node, on the
/// scene graph's side, while Qt's Vulkan device is alive.
class ImageNode : public QSGSimpleTextureNode {
public:
    VkImage image = VK_NULL_HANDLE;

    void replace(QSGTexture *texture) {
        setTexture(texture);
        owned.reset(texture);
    }

private:
    std::unique_ptr<QSGTexture> owned;
};

/// The item: SwiftGPU's image over the whole item, wrapped (not copied) as a QSGTexture.
class Item : public QQuickItem {
public:
    explicit Item(const Shown *shown) : shown(shown) { setFlag(ItemHasContents, true); }

protected:
    QSGNode *updatePaintNode(QSGNode *old, UpdatePaintNodeData *) override {
        auto *node = static_cast<ImageNode *>(old);
        if (shown->image == VK_NULL_HANDLE) {
            delete node;
            return nullptr;
        }
        if (node == nullptr) node = new ImageNode;
        if (node->image != shown->image) {
            // The layout is where the image rests between SwiftGPU's command buffers; Qt
            // samples it there and leaves it there.
            node->replace(QNativeInterface::QSGVulkanTexture::fromNative(shown->image, shown->layout, window(), shown->size));
            node->image = shown->image;
        }
        node->setRect(boundingRect());
        node->markDirty(QSGNode::DirtyMaterial);   // new contents each frame, same texture
        return node;
    }

private:
    const Shown *shown;
};

/// The window: each of Qt's frames is drawn by the app first, then rendered by Qt inside
/// SwiftGPU's queue lock. Events Qt sends while handling one (closing sends a hide, a surface
/// event, …) are already inside the lock and are handled by Qt alone.
class Window : public QQuickWindow {
public:
    explicit Window(swiftgpu_qtquick_callbacks callbacks) : callbacks(callbacks) {
        item = new Item(&shown);
        item->setParentItem(contentItem());
        QObject::connect(this, &QQuickWindow::frameSwapped, [this] { swapped += 1; });
    }

    ~Window() override { delete item; }

    Shown shown;
    Item *item = nullptr;

    /// Reports visibility and focus when they changed; never inside the queue lock.
    void reportVisibility() {
        const bool exposed = isExposed();
        const bool focused = isActive();
        if (reported && exposed == lastExposed && focused == lastFocused) return;
        reported = true;
        lastExposed = exposed;
        lastFocused = focused;
        callbacks.visibility(callbacks.context, exposed, focused);
    }

    /// Runs `body` inside the queue lock (once; nested calls run it directly).
    template <typename Body> void locked(Body body) {
        if (insideLock) {
            body();
            return;
        }
        insideLock = true;
        callbacks.withQueue(callbacks.context, [](void *context) { (*static_cast<Body *>(context))(); }, &body);
        insideLock = false;
    }

protected:
    bool event(QEvent *event) override {
        if (insideLock) return QQuickWindow::event(event);
        reportVisibility();
        if (event->type() == QEvent::KeyPress) {
            auto *key = static_cast<QKeyEvent *>(event);
            if (!key->text().isEmpty()) callbacks.key(callbacks.context, key->text().at(0).toLatin1());
        }
        if ((event->type() == QEvent::UpdateRequest || event->type() == QEvent::Expose) && isExposed()) {
            const QSize size = item->size().toSize() * devicePixelRatio();
            if (!size.isEmpty()) callbacks.frame(callbacks.context, size.width(), size.height());
        }
        bool handled = false;
        const int before = swapped;
        locked([&] { handled = QQuickWindow::event(event); });
        reportVisibility();
        if (swapped != before) callbacks.rendered(callbacks.context, swapped);
        return handled;
    }

    void resizeEvent(QResizeEvent *event) override {
        item->setSize(size());
        QQuickWindow::resizeEvent(event);
    }

private:
    swiftgpu_qtquick_callbacks callbacks;
    bool insideLock = false;
    bool reported = false;
    bool lastExposed = false;
    bool lastFocused = false;
    int swapped = 0;
};

int argumentCount = 1;
char applicationName[] = "SwiftGPU";
char *arguments[] = {applicationName, nullptr};

}  // namespace

struct swiftgpu_qtquick_window {
    QVulkanInstance instance;
    swiftgpu_qtquick_callbacks callbacks;
    VkDevice device = VK_NULL_HANDLE;
    Window *window = nullptr;
};

extern "C" {

swiftgpu_qtquick_window *swiftgpu_qtquick_window_create(void *instance, void *physicalDevice, void *device, int queueFamily,
                                                        const char *title, int width, int height,
                                                        swiftgpu_qtquick_callbacks callbacks, char *error, int errorLength) {
    // Qt's scene graph renders on the GUI thread, where its frames run inside the queue lock.
    qputenv("QSG_RENDER_LOOP", "basic");
    if (QCoreApplication::instance() == nullptr) new QGuiApplication(argumentCount, arguments);
    auto *made = new swiftgpu_qtquick_window;
    made->callbacks = callbacks;
    made->device = static_cast<VkDevice>(device);
    made->instance.setVkInstance(static_cast<VkInstance>(instance));
    if (!made->instance.create()) {
        std::snprintf(error, errorLength, "QVulkanInstance could not adopt SwiftGPU's VkInstance (VkResult %d)",
                      static_cast<int>(made->instance.errorCode()));
        delete made;
        return nullptr;
    }
    QQuickWindow::setGraphicsApi(QSGRendererInterface::Vulkan);
    made->window = new Window(callbacks);
    made->window->setVulkanInstance(&made->instance);
    made->window->setGraphicsDevice(QQuickGraphicsDevice::fromDeviceObjects(
        static_cast<VkPhysicalDevice>(physicalDevice), made->device, queueFamily, 0));
    made->window->setTitle(QString::fromUtf8(title));
    made->window->resize(width, height);
    made->window->item->setSize(QSizeF(width, height));
    return made;
}

void swiftgpu_qtquick_set_texture(swiftgpu_qtquick_window *window, void *image, uint32_t layout, int width, int height) {
    window->window->shown = Shown{static_cast<VkImage>(image), static_cast<VkImageLayout>(layout), QSize(width, height)};
    window->window->item->update();
}

void swiftgpu_qtquick_wait_queue_idle(swiftgpu_qtquick_window *window, void *queue) {
    window->instance.deviceFunctions(window->device)->vkQueueWaitIdle(static_cast<VkQueue>(queue));
}

void swiftgpu_qtquick_show(swiftgpu_qtquick_window *window) { window->window->show(); }

void swiftgpu_qtquick_item_size(swiftgpu_qtquick_window *window, int *width, int *height) {
    const QSize size = window->window->item->size().toSize() * window->window->devicePixelRatio();
    *width = size.width();
    *height = size.height();
}

unsigned long swiftgpu_qtquick_window_id(swiftgpu_qtquick_window *window) { return window->window->winId(); }

void swiftgpu_qtquick_request_frame(swiftgpu_qtquick_window *window) { window->window->item->update(); }

int swiftgpu_qtquick_run(swiftgpu_qtquick_window *) { return QGuiApplication::exec(); }

void swiftgpu_qtquick_quit(swiftgpu_qtquick_window *) { QGuiApplication::quit(); }

void swiftgpu_qtquick_window_destroy(swiftgpu_qtquick_window *window) {
    auto body = [window] { delete window->window; };
    window->callbacks.withQueue(window->callbacks.context, [](void *context) { (*static_cast<decltype(body) *>(context))(); }, &body);
    delete window;
}

}
