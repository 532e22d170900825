/*
 * Execution-oracle shim: one static binary, hard-linked under the name of every program in the sandbox's
 * program directories. It appends one record (pid, ancestors, its own path, cwd, argv) to the log with a
 * single write(2) on an O_APPEND descriptor, then execs the real program at /.real/<its own path>, which is
 * a link into the read-only real /usr. It never changes argv, the environment or the descriptors.
 *
 * Record: "R <pid> <n>\n" then n fields, each "<len>\n<bytes>\n": field 0 the ancestor pids (space
 * separated, nearest first), 1 the shim's path, 2 the cwd, 3.. argv.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG "/.oracle/log"
#define CAP (1 << 20)

static char buf[CAP];
static size_t used;

static void put(const char *s, size_t n) {
  if (used + n > CAP) n = CAP - used;
  memcpy(buf + used, s, n);
  used += n;
}

static void field(const char *s) {
  char head[32];
  size_t n = strlen(s);
  put(head, (size_t)snprintf(head, sizeof head, "%zu\n", n));
  put(s, n);
  put("\n", 1);
}

/* The parent of `pid` from /proc/<pid>/stat (the field after the command name in parentheses). */
static long parent_of(long pid) {
  char path[64], text[512];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 0;
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = 0;
  char *close_paren = strrchr(text, ')');
  if (!close_paren) return 0;
  char state;
  long ppid = 0;
  if (sscanf(close_paren + 1, " %c %ld", &state, &ppid) != 2) return 0;
  return ppid;
}

int main(int argc, char **argv) {
  char self[4096], real[4200], cwd[4096], ancestors[2048], head[64];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return 127;
  self[n] = 0;
  if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "?");
  size_t a = 0;
  ancestors[0] = 0;
  for (long p = getppid(), i = 0; p > 1 && i < 64 && a < sizeof ancestors - 32; p = parent_of(p), i++)
    a += (size_t)snprintf(ancestors + a, sizeof ancestors - a, "%s%ld", a ? " " : "", p);
  put(head, (size_t)snprintf(head, sizeof head, "R %ld %d\n", (long)getpid(), argc + 3));
  field(ancestors);
  field(self);
  field(cwd);
  for (int i = 0; i < argc; i++) field(argv[i]);
  int fd = open(LOG, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd >= 0) {
    if (write(fd, buf, used) != (ssize_t)used) return 126;
    close(fd);
  }
  snprintf(real, sizeof real, "/.real%s", self);
  execv(real, argv);
  perror(real);
  return 127;
}
