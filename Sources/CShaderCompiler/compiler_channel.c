// The app's side of the compiler process: starting it and the socket's reads and writes.
#define _GNU_SOURCE
#include "CShaderCompiler.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int swiftgpu_shader_compiler_start(pid_t *pid, int *socket_out) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return errno;

    // The environment: this process's, with the variable that makes the child a compiler.
    size_t count = 0;
    while (environ[count]) count += 1;
    char **environment = calloc(count + 2, sizeof(char *));
    if (!environment) {
        close(fds[0]);
        close(fds[1]);
        return ENOMEM;
    }
    size_t kept = 0;
    const size_t nameLength = strlen(SWIFTGPU_SHADER_COMPILER_ENVIRONMENT);
    for (size_t index = 0; index < count; index++) {
        const char *entry = environ[index];
        if (strncmp(entry, SWIFTGPU_SHADER_COMPILER_ENVIRONMENT, nameLength) == 0 && entry[nameLength] == '=') continue;
        environment[kept++] = environ[index];
    }
    environment[kept++] = SWIFTGPU_SHADER_COMPILER_ENVIRONMENT "=1";
    environment[kept] = NULL;

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // dup2 onto descriptor 3 clears close-on-exec there; everything above it is closed, so
    // the compiler holds no socket, file or display connection of the app's.
    posix_spawn_file_actions_adddup2(&actions, fds[1], SWIFTGPU_SHADER_COMPILER_DESCRIPTOR);
    posix_spawn_file_actions_addclosefrom_np(&actions, SWIFTGPU_SHADER_COMPILER_DESCRIPTOR + 1);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);

    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    char *arguments[] = {"swiftgpu-shader-compiler", NULL};
    int result = posix_spawn(pid, "/proc/self/exe", &actions, &attributes, arguments, environment);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    free(environment);
    close(fds[1]);
    if (result != 0) {
        close(fds[0]);
        return result;
    }
    *socket_out = fds[0];
    return 0;
}

int swiftgpu_shader_compiler_send(int socket, const void *bytes, size_t length) {
    const char *next = bytes;
    while (length > 0) {
        ssize_t sent = send(socket, next, length, MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        next += sent;
        length -= (size_t)sent;
    }
    return 0;
}

static int64_t now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (int64_t)time.tv_sec * 1000000000 + time.tv_nsec;
}

int swiftgpu_shader_compiler_receive(int socket, void *bytes, size_t length, int64_t deadline) {
    char *next = bytes;
    while (length > 0) {
        int64_t left = deadline - now();
        if (left <= 0) return ETIMEDOUT;
        struct pollfd entry = {.fd = socket, .events = POLLIN};
        // Rounded up, so that the wait never ends just short of the deadline.
        int64_t milliseconds = (left + 999999) / 1000000;
        int ready = poll(&entry, 1, milliseconds > 0x7fffffff ? 0x7fffffff : (int)milliseconds);
        if (ready < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (ready == 0) continue;
        ssize_t got = recv(socket, next, length, 0);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return errno;
        }
        if (got == 0) return EPIPE;
        next += got;
        length -= (size_t)got;
    }
    return 0;
}
