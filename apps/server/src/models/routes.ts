import { Hono } from 'hono'
import type { AppEnv } from '../app-env.ts'
import type { Config } from '../config/config.ts'
import { listModels } from './service.ts'

export function modelRoutes(config: Config) {
  const models = listModels(config)
  return new Hono<AppEnv>().get('/api/models', (context) => context.json(models))
}
