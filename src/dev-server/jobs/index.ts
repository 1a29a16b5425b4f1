// Surface A (job API v2): jobs and assets.
import type { RouteHandler } from '../contract.js';

export const handleJobsApi: RouteHandler = async () => false;
