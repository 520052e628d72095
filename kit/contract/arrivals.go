package contract

// The open loop's arrival processes (the conductor's -arrivals, your-api's --arrivals):
// a send every 1/rate, or after exponential gaps of mean 1/rate (kit/incontainer/loadgen).
const (
	ArrivalsConstant = "constant"
	ArrivalsPoisson  = "poisson"
)
