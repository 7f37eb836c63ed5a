// CQtView.h over Qt 6 Widgets. No class here needs moc: signals are connected to lambdas
// and the view overrides QWindow's virtual event handlers.
#include "CQtView.h"

// Qt 6.4's headers declare literal operators in a form newer compilers deprecate.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-literal-operator"
#include <QApplication>
#include <QEvent>
#include <QExposeEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QPlatformSurfaceEvent>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>
#include <QVulkanInstance>
#include <QWidget>
#include <QWindow>
#pragma clang diagnostic pop

#include <cstdio>
#include <map>
#include <vector>

namespace {

/// What the user can see of the view: its own exposure and its top-level window's. Qt
/// unexposes only the window X unmapped, so a hidden or minimised top-level window leaves
/// the view (a child window) exposed in Qt's eyes; both are watched and reported together.
class Exposure : public QObject {
public:
    explicit Exposure(swiftgpu_qt_callbacks callbacks) : callbacks(callbacks) {}

    /// Reports the visibility when it changed, once the window is shown.
    void update() {
        if (top == nullptr) return;
        const bool visible = view->isExposed() && top->isExposed();
        if (reported && visible == last) return;
        reported = true;
        last = visible;
        callbacks.exposed(callbacks.context, visible);
    }

    QWindow *view = nullptr;
    QWindow *top = nullptr;

protected:
    /// The top-level window's expose events (it was mapped or unmapped).
    bool eventFilter(QObject *watched, QEvent *event) override {
        if (watched == top && event->type() == QEvent::Expose) {
            update();
            if (last) view->requestUpdate();
        }
        return false;
    }

private:
    swiftgpu_qt_callbacks callbacks;
    bool reported = false;
    bool last = false;
};

/// The view: a QWindow with a Vulkan surface that asks the app for frames.
class View : public QWindow {
public:
    View(swiftgpu_qt_callbacks callbacks, Exposure *exposure) : callbacks(callbacks), exposure(exposure) {
        setSurfaceType(QSurface::VulkanSurface);
    }

protected:
    void exposeEvent(QExposeEvent *) override {
        exposure->update();
        if (isExposed()) requestUpdate();
    }

    bool event(QEvent *event) override {
        if (event->type() == QEvent::UpdateRequest) {
            callbacks.frame(callbacks.context);
            return true;
        }
        if (event->type() == QEvent::PlatformSurface &&
            static_cast<QPlatformSurfaceEvent *>(event)->surfaceEventType() == QPlatformSurfaceEvent::SurfaceAboutToBeDestroyed) {
            callbacks.surfaceGoing(callbacks.context);
        }
        return QWindow::event(event);
    }

    void keyPressEvent(QKeyEvent *event) override {
        if (!event->text().isEmpty()) callbacks.key(callbacks.context, event->text().at(0).toLatin1());
    }

private:
    swiftgpu_qt_callbacks callbacks;
    Exposure *exposure;
};

/// The top-level widget: reports its focus and keys.
class Frame : public QWidget {
public:
    explicit Frame(swiftgpu_qt_callbacks callbacks) : callbacks(callbacks) {}

protected:
    bool event(QEvent *event) override {
        if (event->type() == QEvent::WindowActivate) callbacks.focused(callbacks.context, true);
        if (event->type() == QEvent::WindowDeactivate) callbacks.focused(callbacks.context, false);
        return QWidget::event(event);
    }

    void keyPressEvent(QKeyEvent *event) override {
        if (!event->text().isEmpty()) callbacks.key(callbacks.context, event->text().at(0).toLatin1());
    }

private:
    swiftgpu_qt_callbacks callbacks;
};

int argumentCount = 1;
char applicationName[] = "SwiftGPU";
char *arguments[] = {applicationName, nullptr};

}  // namespace

struct swiftgpu_qt_window {
    QVulkanInstance instance;
    swiftgpu_qt_callbacks callbacks;
    Exposure *exposure = nullptr;
    Frame *frame = nullptr;
    View *view = nullptr;
    QVBoxLayout *panel = nullptr;
    std::vector<QLabel *> labels;
    std::map<int, QWidget *> controls;
};

extern "C" {

int swiftgpu_qt_ensure_application(void) {
    if (QCoreApplication::instance() == nullptr) new QApplication(argumentCount, arguments);
    return qobject_cast<QApplication *>(QCoreApplication::instance()) != nullptr;
}

swiftgpu_qt_window *swiftgpu_qt_window_create(void *instance, const char *title, int width, int height,
                                              swiftgpu_qt_callbacks callbacks, char *error, int errorLength) {
    if (!swiftgpu_qt_ensure_application()) {
        std::snprintf(error, errorLength, "Qt Widgets needs a QApplication, and this process already has a Qt application "
                      "that is not one (a QGuiApplication): make a QApplication before any Qt window");
        return nullptr;
    }
    auto *window = new swiftgpu_qt_window;
    window->callbacks = callbacks;
    window->instance.setVkInstance(static_cast<VkInstance>(instance));
    if (!window->instance.create()) {
        std::snprintf(error, errorLength, "QVulkanInstance could not adopt SwiftGPU's VkInstance (VkResult %d)",
                      static_cast<int>(window->instance.errorCode()));
        delete window;
        return nullptr;
    }
    window->frame = new Frame(callbacks);
    window->frame->setWindowTitle(QString::fromUtf8(title));
    window->frame->resize(width, height);
    window->exposure = new Exposure(callbacks);
    window->view = new View(callbacks, window->exposure);
    window->exposure->view = window->view;
    window->view->setVulkanInstance(&window->instance);
    QWidget *container = QWidget::createWindowContainer(window->view, window->frame);
    container->setMinimumSize(64, 64);
    auto *layout = new QHBoxLayout(window->frame);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(container, 1);
    window->panel = new QVBoxLayout;
    window->panel->setContentsMargins(8, 8, 8, 8);
    window->panel->addStretch(1);
    layout->addLayout(window->panel);
    return window;
}

void swiftgpu_qt_add_button(swiftgpu_qt_window *window, const char *label, int control) {
    auto *button = new QPushButton(QString::fromUtf8(label));
    auto callbacks = window->callbacks;
    QObject::connect(button, &QPushButton::clicked, [callbacks, control] { callbacks.changed(callbacks.context, control, 1); });
    window->controls[control] = button;
    window->panel->insertWidget(window->panel->count() - 1, button);
}

void swiftgpu_qt_add_slider(swiftgpu_qt_window *window, int minimum, int maximum, int value, int control) {
    auto *slider = new QSlider(Qt::Horizontal);
    slider->setRange(minimum, maximum);
    slider->setValue(value);
    auto callbacks = window->callbacks;
    QObject::connect(slider, &QSlider::valueChanged,
                     [callbacks, control](int value) { callbacks.changed(callbacks.context, control, value); });
    window->controls[control] = slider;
    window->panel->insertWidget(window->panel->count() - 1, slider);
}

int swiftgpu_qt_add_label(swiftgpu_qt_window *window, const char *text) {
    auto *label = new QLabel(QString::fromUtf8(text));
    window->labels.push_back(label);
    window->panel->insertWidget(window->panel->count() - 1, label);
    return static_cast<int>(window->labels.size()) - 1;
}

void swiftgpu_qt_set_label(swiftgpu_qt_window *window, int label, const char *text) {
    window->labels.at(static_cast<size_t>(label))->setText(QString::fromUtf8(text));
}

void swiftgpu_qt_show(swiftgpu_qt_window *window) {
    window->frame->show();
    window->view->create();
    window->exposure->top = window->frame->windowHandle();
    window->exposure->top->installEventFilter(window->exposure);
}

void *swiftgpu_qt_view_surface(swiftgpu_qt_window *window) {
    if (window->view->handle() == nullptr) return nullptr;
    return reinterpret_cast<void *>(QVulkanInstance::surfaceForWindow(window->view));
}

void swiftgpu_qt_view_size(swiftgpu_qt_window *window, int *width, int *height) {
    const QSize size = window->view->size() * window->view->devicePixelRatio();
    *width = size.width();
    *height = size.height();
}

bool swiftgpu_qt_control_center(swiftgpu_qt_window *window, int control, int *x, int *y) {
    auto found = window->controls.find(control);
    if (found == window->controls.end()) return false;
    const QPoint center = found->second->mapTo(window->frame, found->second->rect().center());
    *x = center.x();
    *y = center.y();
    return true;
}

unsigned long swiftgpu_qt_window_id(swiftgpu_qt_window *window) { return window->frame->winId(); }

void swiftgpu_qt_request_frame(swiftgpu_qt_window *window) { window->view->requestUpdate(); }

int swiftgpu_qt_run(swiftgpu_qt_window *) { return QApplication::exec(); }

void swiftgpu_qt_quit(swiftgpu_qt_window *) { QApplication::quit(); }

void swiftgpu_qt_window_destroy(swiftgpu_qt_window *window) {
    delete window->frame;   // the container, and the view with it
    delete window->exposure;
    delete window;
}

}
