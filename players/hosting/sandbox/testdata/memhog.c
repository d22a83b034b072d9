/* memhog: allocates and touches memory 1 MiB at a time until malloc fails (exit 0) or
   until it holds argv[1] MiB, the most a test lets it try (exit 3). argv[2], the test's
   tag, is only there to be found in /proc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
	long most = argc > 1 ? atol(argv[1]) : 1024, mib;
	for (mib = 0; mib < most; mib++) {
		char *p = malloc(1 << 20);
		if (p == NULL) {
			printf("malloc failed after %ld MiB\n", mib);
			return 0;
		}
		memset(p, 1, 1 << 20);
	}
	printf("still allocating after %ld MiB\n", mib);
	return 3;
}
