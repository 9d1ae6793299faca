// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-ssh-askpass PROMPT: the SSH_ASKPASS program the console gives ssh (app/ssh/Askpass.h).
// It sends PROMPT to the console's socket named by INVENTORY_SSH_ASKPASS_SOCKET (in the
// console's private runtime directory) and prints the answer for ssh to read. No answer, or
// no console, is a failure: ssh then treats the prompt as cancelled. Plain POSIX: it holds a
// secret for a moment and should do nothing else.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static bool writeAll(int fd, const char *data, size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

int main(int argc, char **argv)
{
    const char *path = std::getenv("INVENTORY_SSH_ASKPASS_SOCKET");
    if (argc < 2 || path == nullptr || std::strlen(path) >= sizeof(sockaddr_un::sun_path))
        return 1;
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address = {};
    address.sun_family = AF_UNIX;
    std::strcpy(address.sun_path, path);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0)
        return 1;
    // The prompt on one line: line breaks inside it are sent as spaces.
    const size_t promptSize = std::strlen(argv[1]) < 4000 ? std::strlen(argv[1]) : 4000;
    char prompt[4002];
    for (size_t i = 0; i < promptSize; ++i)
        prompt[i] = (argv[1][i] == '\n' || argv[1][i] == '\r') ? ' ' : argv[1][i];
    prompt[promptSize] = '\n';
    if (!writeAll(fd, prompt, promptSize + 1))
        return 1;
    char answer[4096];
    size_t size = 0;
    for (;;) {
        const ssize_t n = ::read(fd, answer + size, sizeof answer - size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size += size_t(n);
        if (size == sizeof answer)
            break;
    }
    ::close(fd);
    const bool ok = size > 0 && size < sizeof answer && writeAll(STDOUT_FILENO, answer, size)
                    && writeAll(STDOUT_FILENO, "\n", 1);
    ::explicit_bzero(answer, sizeof answer);
    return ok ? 0 : 1;
}
