/* forkcount: forks children that wait (for up to 3 seconds) until a fork fails, or until
   argv[1] of them run, then prints how many it started and how the next fork failed.
   argv[2], the test's tag, is only there to be found in /proc. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
	long most = argc > 1 ? atol(argv[1]) : 256, n;
	for (n = 0; n < most; n++) {
		pid_t pid = fork();
		if (pid < 0) {
			printf("forked %ld: %s\n", n, strerror(errno));
			fflush(stdout);
			return 0;
		}
		if (pid == 0) {
			sleep(3);
			_exit(0);
		}
	}
	printf("forked %ld: no failure\n", n);
	return 3;
}
