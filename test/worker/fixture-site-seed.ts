/** The seed of the fixture site both the Worker and the Node side of the comparison build. */
export const SEED = 20261207;
