/* forkbomb: every process forks without end, whether its forks succeed or fail, so the
   bomb stays at whatever limit holds it. argv[1], the test's tag, is only there to be
   found in /proc. */
#include <unistd.h>

int main(void) {
	for (;;)
		fork();
}
