# The verbs a newcomer looks for; each wraps an npm script.
.PHONY: install generate check-generated typecheck lint test build build-sdk serve import-upstream ci

install:
	npm ci

generate:
	npm run generate

check-generated:
	npm run generate:check

typecheck:
	npm run typecheck

lint:
	npm run lint

test:
	npm test

build:
	npm run build

# The typed SDK package @kapi/client into dist/sdk/ (then `npm pack ./dist/sdk`; docs/sdk.md).
build-sdk:
	npm run build:sdk

serve:
	npm start

# Maintenance: rebuild schemas/ from ../shared/upstream and the overlays in scripts/import/overlay/.
import-upstream:
	npm run import-upstream

ci:
	bash .ci/run
