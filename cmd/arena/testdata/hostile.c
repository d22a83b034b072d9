/* hostile.c: a line-protocol engine that attacks its sandbox at its first "go", for
 * TestHostileSubmissionsAreContained. It answers "arena 1" like any engine, then does
 * what its first argument says. Whatever attack succeeds makes it answer "escaped-WHAT",
 * which the referee judges an illegal move and the test looks for; an attack that is
 * contained ends the way its comment says. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void escaped(const char *what) {
	printf("escaped-%s\n", what);
	fflush(stdout);
	exit(0);
}

static int connects(const char *host, int port) {
	int s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0)
		return 0;
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	inet_pton(AF_INET, host, &a.sin_addr);
	int ok = connect(s, (struct sockaddr *)&a, sizeof a) == 0;
	close(s);
	return ok;
}

static void attack(int argc, char **argv) {
	const char *mode = argv[1];
	if (!strcmp(mode, "forkbomb")) { /* stopped by the process limit; never answers */
		for (;;)
			fork();
	} else if (!strcmp(mode, "memhog")) { /* fails to allocate past the memory limit and exits, unless its time runs out first */
		for (size_t total = 0;; total += 64 << 20) {
			char *p = malloc(64 << 20);
			if (!p) {
				fprintf(stderr, "memhog: no more memory after %zu MiB\n", total >> 20);
				exit(1);
			}
			memset(p, 1, 64 << 20);
			if (total > ((size_t)16 << 30))
				escaped("memory");
		}
	} else if (!strcmp(mode, "diskfill")) { /* stopped by the file size and /tmp limits, exits */
		static char buf[1 << 20];
		memset(buf, 'x', sizeof buf);
		if (open("./own-dir-write", O_WRONLY | O_CREAT, 0644) >= 0)
			escaped("write-own-dir");
		signal(SIGXFSZ, SIG_IGN);
		int fd = open("/tmp/fill", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		long written = 0;
		while (fd >= 0 && write(fd, buf, sizeof buf) == (ssize_t)sizeof buf)
			if (++written > 4096)
				escaped("disk");
		fprintf(stderr, "diskfill: stopped after %ld MiB: %s\n", written, strerror(errno));
		exit(1);
	} else if (!strcmp(mode, "network")) { /* no network: exits */
		for (int i = 2; i + 1 < argc; i += 2)
			if (connects(argv[i], atoi(argv[i + 1])))
				escaped("network");
		fprintf(stderr, "network: no connection: %s\n", strerror(errno));
		exit(1);
	} else if (!strcmp(mode, "read")) { /* sees none of the paths: exits */
		for (int i = 2; i < argc; i++)
			if (access(argv[i], F_OK) == 0)
				escaped("read");
		fprintf(stderr, "read: none of the paths is there\n");
		exit(1);
	} else if (!strcmp(mode, "never")) { /* ignores SIGTERM and never answers */
		signal(SIGTERM, SIG_IGN);
		for (volatile unsigned long i = 0;; i++)
			;
	}
}

int main(int argc, char **argv) {
	char line[8192];
	if (argc < 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof line, stdin)) {
		if (!strncmp(line, "arena", 5))
			printf("ready hostile-%s 1\n", argv[1]);
		else if (!strncmp(line, "go", 2))
			attack(argc, argv);
		else if (!strncmp(line, "quit", 4))
			return 0;
	}
	return 0;
}
