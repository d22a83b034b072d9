/* An engine of the line protocol for the cgroup tests (cgroup_test.go). It plays the first
 * legal move; argv[1] chooses what else it does:
 *   honest  holds 64 MiB it has touched, and works about 50 ms of CPU for each move;
 *   late    asks for fenced turns (feature fence) and answers its first move after 1.2 s,
 *           the others at once;
 *   spin    keeps 60 threads spinning except during its own turns;
 *   shm     starts a child that makes, attaches, fills and detaches 16 MiB System V shared
 *           memory segments without end, never removing them;
 *   fork    starts a child that forks without end (a fork bomb). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

static volatile int spin = 1;

static void *spinner(void *arg) {
	volatile unsigned long x = 0;
	(void)arg;
	for (;;) {
		if (spin)
			x++;
		else
			usleep(100);
	}
	return NULL;
}

static void shmhog(void) {
	for (;;) {
		int id = shmget(IPC_PRIVATE, 16 << 20, IPC_CREAT | 0600);
		if (id < 0) {
			usleep(1000);
			continue;
		}
		char *p = shmat(id, NULL, 0);
		if (p == (void *)-1)
			continue;
		memset(p, 1, 16 << 20);
		shmdt(p);
	}
}

static void work(void) {
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 150000000UL; i++)
		x += i;
}

int main(int argc, char **argv) {
	const char *mode = argc > 1 ? argv[1] : "honest";
	int late = !strcmp(mode, "late");
	char line[1 << 16], first[64] = "", cmd[32];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "honest")) {
		char *m = malloc(64 << 20);
		if (m)
			memset(m, 1, 64 << 20);
	} else if (!strcmp(mode, "spin")) {
		for (int i = 0; i < 60; i++) {
			pthread_t t;
			pthread_create(&t, NULL, spinner, NULL);
		}
	} else if (!strcmp(mode, "shm")) {
		if (fork() == 0)
			shmhog();
	} else if (!strcmp(mode, "fork")) {
		if (fork() == 0)
			for (;;)
				fork();
	}
	while (fgets(line, sizeof line, stdin)) {
		if (sscanf(line, "%31s", cmd) != 1)
			continue;
		if (!strcmp(cmd, "arena")) {
			if (late)
				printf("feature fence\n");
			printf("ready %s 1\n", mode);
		} else if (!strcmp(cmd, "ping")) {
			char n[32] = "";
			sscanf(line, "%*s %31s", n);
			printf("pong %s\n", n);
		} else if (!strcmp(cmd, "legal")) {
			sscanf(line, "%*s %63s", first);
		} else if (!strcmp(cmd, "go")) {
			static int moves;
			if (late && moves++ == 0)
				usleep(1200000);
			spin = 0;
			if (!strcmp(mode, "honest"))
				work();
			printf(late ? "move %s\n" : "%s\n", first);
			spin = 1;
		} else if (!strcmp(cmd, "quit")) {
			return 0;
		}
	}
	return 0;
}
