package humantime_test

import (
	"fmt"
	"time"

	"github.com/arenaref/arena/internal/humantime"
)

func ExampleRound() {
	fmt.Println(humantime.Round(102339679 * time.Nanosecond))
	fmt.Println(humantime.Round(1234567891 * time.Nanosecond))
	// Output:
	// 102ms
	// 1.23s
}
