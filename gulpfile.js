const path = require('path');
const { task, src, dest } = require('gulp');

task('build:icons', copyIcons);

// n8n loads node and credential icons from next to the built .js files
function copyIcons() {
	const nodeSource = path.resolve('nodes', '**', '*.{png,svg}');
	const nodeDestination = path.resolve('dist', 'nodes');
	src(nodeSource, { encoding: false }).pipe(dest(nodeDestination));

	const credSource = path.resolve('credentials', '**', '*.{png,svg}');
	const credDestination = path.resolve('dist', 'credentials');
	src(credSource, { encoding: false }).pipe(dest(credDestination));

	// shared icons: nodes and the credential reference them as ../icons or ../../icons
	return src(path.resolve('icons', '*.{png,svg}'), { encoding: false }).pipe(
		dest(path.resolve('dist', 'icons')),
	);
}
