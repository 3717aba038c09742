import { Hono } from 'hono'
import type { Config } from '../config/config.ts'
import type { AppEnv } from '../http/app-env.ts'
import { listModels } from './service.ts'

export function modelRoutes(config: Config) {
  const models = listModels(config)
  return new Hono<AppEnv>().get('/api/models', (context) => context.json(models))
}
